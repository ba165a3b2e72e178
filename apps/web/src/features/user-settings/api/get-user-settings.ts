import { queryOptions, useQuery } from '@tanstack/react-query';
import { allSettingsResponseSchema, defaultUserSettings, type UserSettings } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

export const userSettingsQueryKey = ['user', 'settings'] as const;

/** GET /api/user/settings: every setting as a string, defaults filled in by the API (and here too). */
export async function getUserSettings(): Promise<UserSettings> {
  const stored = await apiRequest('/user/settings', { schema: allSettingsResponseSchema, quiet: true });
  return { ...defaultUserSettings(), ...stored };
}

export function userSettingsQueryOptions() {
  return queryOptions({ queryKey: userSettingsQueryKey, queryFn: getUserSettings });
}

export function useUserSettings(options: { isEnabled?: boolean } = {}) {
  return useQuery({ ...userSettingsQueryOptions(), enabled: options.isEnabled ?? true });
}
