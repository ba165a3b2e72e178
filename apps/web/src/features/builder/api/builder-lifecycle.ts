import {
  builderViewSchema,
  messageResponseSchema,
  type BuilderView,
  type ExtractorType,
} from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';
import { builderPath } from './builder-path';

/** PUT /extractor/edit: saves the validated draft. */
export function saveBuilder(extractorType: ExtractorType): Promise<BuilderView> {
  return apiRequest(builderPath('/extractor/edit', extractorType), {
    method: 'PUT',
    body: {},
    schema: builderViewSchema,
  });
}

/** GET /extractor/end: closes the live browser and forgets the draft. */
export async function endBuilder(extractorType: ExtractorType): Promise<void> {
  await apiRequest(builderPath('/extractor/end', extractorType), { schema: messageResponseSchema });
}
