import { QueryClient } from '@tanstack/react-query';

/**
 * Server state lives in TanStack Query. Failed calls are not retried automatically: the API client
 * already refreshes an expired token once, and a second attempt would only repeat the error toast.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});

/**
 * The user's settings in the cache: the router asks for them as a screen that needs them starts to
 * load, the settings feature reads and updates them.
 */
export const userSettingsQueryKey = ['user', 'settings'] as const;
