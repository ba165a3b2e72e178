import { datasetFieldListResponseSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** DELETE /dataset/removedatasetfield/: a saved field leaves the draft (409 while a query uses it). */
export function removeDatasetField(datasetId: string, field: { datasetFieldId: string; name: string }) {
  const query = new URLSearchParams({
    datasetId,
    datasetFieldId: field.datasetFieldId,
    datasetFieldName: field.name,
  });
  return apiRequest(`/dataset/removedatasetfield/?${query.toString()}`, {
    method: 'DELETE',
    schema: datasetFieldListResponseSchema,
  });
}
