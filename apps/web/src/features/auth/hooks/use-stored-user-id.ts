import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSession, storeUserId } from '../../../lib/session';
import { getCurrentUser } from '../api/get-current-user';

/**
 * Keeps the `id` key filled for signed-in users whose id was not fetched at login (token entries, a
 * temporary password changed since). Failures are left to the screens' own calls to report.
 */
export function useStoredUserId(): void {
  const { accessToken, refreshToken, userId, isTempPasswordSet } = useSession();
  const isNeeded = accessToken !== null && refreshToken !== null && userId === null && !isTempPasswordSet;
  const currentUser = useQuery({
    queryKey: ['user', 'current'],
    queryFn: getCurrentUser,
    enabled: isNeeded,
    staleTime: Infinity,
  });

  useEffect(() => {
    if (isNeeded && currentUser.data) storeUserId(currentUser.data.id);
  }, [isNeeded, currentUser.data]);
}
