import { builderViewSchema, type BuilderView, type ExtractorType } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';
import { builderPath } from './builder-path';

/** GET /extractor/edit/:id: makes a saved item the current builder of its type (its flow is the draft). */
export function openBuilder(id: string): Promise<BuilderView> {
  return apiRequest(`/extractor/edit/${encodeURIComponent(id)}`, { schema: builderViewSchema });
}

/** GET /extractor/current: the draft already open (after a reload, or right after a start). */
export function getCurrentBuilder(extractorType: ExtractorType): Promise<BuilderView> {
  return apiRequest(builderPath('/extractor/current', extractorType), { schema: builderViewSchema });
}
