import { Outlet } from 'react-router-dom';
import { LoadingOverlay } from '../../components/loading-overlay';
import { Toaster } from '../../components/toaster';
import { VersionLabel } from '../../components/version-label';

/** Present on every screen: overlay, toasts and the version label. */
export function RootLayout() {
  return (
    <>
      <Outlet />
      <Toaster />
      <LoadingOverlay />
      <VersionLabel />
    </>
  );
}
