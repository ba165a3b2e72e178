import {
  maskPreviewResponseSchema,
  timezonesResponseSchema,
  type DateMask,
  type ExtractorType,
  type MaskPreviewResponse,
  type NumberMask,
} from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';
import { builderPath } from './builder-path';

/** The element a mask preview reads: the picked element of the live page. */
export interface MaskPreviewElement {
  selectorValue: string;
  xpathValue?: string | undefined;
}

/** POST /extractor/number/mask (quiet: it runs while the user types). */
export function previewNumberMask(
  extractorType: ExtractorType,
  element: MaskPreviewElement,
  mask: NumberMask,
  signal?: AbortSignal,
): Promise<MaskPreviewResponse> {
  return apiRequest(builderPath('/extractor/number/mask', extractorType), {
    method: 'POST',
    body: { ...mask, selectorValue: element.selectorValue, xpathValue: element.xpathValue },
    schema: maskPreviewResponseSchema,
    quiet: true,
    signal,
  });
}

/** POST /extractor/dateTime/mask: payload gmt, mask, selectorValue (spec §7; quiet). */
export function previewDateMask(
  extractorType: ExtractorType,
  element: MaskPreviewElement,
  mask: DateMask,
  signal?: AbortSignal,
): Promise<MaskPreviewResponse> {
  return apiRequest(builderPath('/extractor/dateTime/mask', extractorType), {
    method: 'POST',
    body: { gmt: mask.gmt, mask: mask.mask, selectorValue: element.selectorValue },
    schema: maskPreviewResponseSchema,
    quiet: true,
    signal,
  });
}

/** GET /extractor/dateTime/timezones: the same list for every builder, so it is cached for the tab. */
export const timeZonesQuery = {
  queryKey: ['builder', 'time-zones'] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    apiRequest('/extractor/dateTime/timezones', { schema: timezonesResponseSchema, quiet: true, signal }),
  staleTime: Infinity,
  retry: false,
} as const;
