import { Navigate, Outlet } from 'react-router-dom';
import { useSession } from '../../lib/session';
import { PATHS, SESSION_EXPIRED_PATH } from '../../lib/paths';

/** Only a holder of an access token reaches the signed-in screens. */
export function RequireSession() {
  const { accessToken, hasExpired } = useSession();
  if (accessToken === null) return <Navigate to={hasExpired ? SESSION_EXPIRED_PATH : PATHS.login} replace />;
  return <Outlet />;
}
