import { labelColumnSelectionResponseSchema, type LabelColumnKey } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** POST /dataset/labeltablecolumnlist: step 2 → Next; each chosen row comes back with a check box per field. */
export function selectLabelColumns(rows: LabelColumnKey[]) {
  return apiRequest('/dataset/labeltablecolumnlist', {
    method: 'POST',
    body: { rows },
    schema: labelColumnSelectionResponseSchema,
  });
}
