import { queryOptions, useQuery } from '@tanstack/react-query';
import { allSettingsResponseSchema, defaultUserSettings, type UserSettings } from '@pagewright/shared';
import { apiRequest, parseAnswer } from '../../../lib/api-client';
import { queryClient, userSettingsQueryKey } from '../../../lib/query-client';
import { getSession } from '../../../lib/session';

/** GET /api/user/settings: every setting as a string, defaults filled in by the API (and here too). */
export async function getUserSettings(): Promise<UserSettings> {
  return withDefaults(await apiRequest('/user/settings', { schema: allSettingsResponseSchema, quiet: true }));
}

function withDefaults(stored: Partial<UserSettings>): UserSettings {
  return { ...defaultUserSettings(), ...stored };
}

export function userSettingsQueryOptions() {
  return queryOptions({ queryKey: userSettingsQueryKey, queryFn: getUserSettings });
}

/**
 * Starts the call while the code of a screen that waits for it (dashboard, builder) is still
 * loading, so both arrive together. Only when that screen will ask: with a session whose password
 * is not temporary (until it is changed, the API refuses settings). `sent`: the answer the router
 * already asked for before this module arrived, read here through the contract.
 */
export function prefetchUserSettings(sent?: Promise<unknown>): void {
  const { accessToken, isTempPasswordSet } = getSession();
  if (accessToken === null || isTempPasswordSet) return;
  void queryClient.prefetchQuery({
    ...userSettingsQueryOptions(),
    ...(sent
      ? { queryFn: async () => withDefaults(parseAnswer(allSettingsResponseSchema, await sent)) }
      : {}),
  });
}

export function useUserSettings(options: { isEnabled?: boolean } = {}) {
  return useQuery({ ...userSettingsQueryOptions(), enabled: options.isEnabled ?? true });
}
