import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { extractorListItemSchema, type ExtractorListItem, type ExtractorType } from '@pagewright/shared';
import { apiRequest } from './api-client';

const listSchema = z.array(extractorListItemSchema);

export const extractorListQueryKey = (extractorType: ExtractorType) => ['extractors', extractorType] as const;

/** GET /extractor?extractorType= (quiet: it reloads in the background). */
export function listExtractors(extractorType: ExtractorType): Promise<ExtractorListItem[]> {
  return apiRequest(`/extractor?extractorType=${encodeURIComponent(extractorType)}`, {
    schema: listSchema,
    quiet: true,
  });
}

/** One dashboard list, reloaded every `refreshIntervalMs` while it is on screen. */
export function extractorListQueryOptions(extractorType: ExtractorType, refreshIntervalMs: number) {
  return queryOptions({
    queryKey: extractorListQueryKey(extractorType),
    queryFn: () => listExtractors(extractorType),
    refetchInterval: refreshIntervalMs,
    // Statuses change on the server at any time: a list coming back on screen loads at once.
    staleTime: 0,
  });
}

export function useExtractorList(
  extractorType: ExtractorType,
  options: { refreshIntervalMs: number; isEnabled: boolean },
) {
  return useQuery({
    ...extractorListQueryOptions(extractorType, options.refreshIntervalMs),
    enabled: options.isEnabled,
  });
}
