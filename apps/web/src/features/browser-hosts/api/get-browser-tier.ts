import { useQuery } from '@tanstack/react-query';
import { browserTierSchema, type BrowserTier } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

export const browserTierQueryKey = ['browser-hosts'] as const;
/** Workers publish their browsers with every heartbeat (5 s): the card follows at that pace. */
const REFRESH_MS = 5_000;

/** GET /api/browser-hosts: each live worker's browsers and their state. */
export function getBrowserTier(): Promise<BrowserTier> {
  return apiRequest('/browser-hosts', { schema: browserTierSchema, quiet: true });
}

export function useBrowserTier() {
  return useQuery({ queryKey: browserTierQueryKey, queryFn: getBrowserTier, refetchInterval: REFRESH_MS });
}
