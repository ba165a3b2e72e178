import { Navigate } from 'react-router-dom';
import { PATHS } from '../../lib/paths';
import { useSession } from '../../lib/session';

/** Bare `/`: the dashboard with a session, else the login screen. */
export function RootRedirect() {
  const { accessToken } = useSession();
  return <Navigate to={accessToken ? PATHS.dashboard : PATHS.login} replace />;
}
