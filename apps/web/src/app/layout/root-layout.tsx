import { Outlet } from 'react-router-dom';
import { LoadingOverlay } from '../../components/loading-overlay';
import { NavigationLoading } from '../../components/route-loading';
import { Toaster } from '../../components/toaster';
import { VersionLabel } from '../../components/version-label';

/** Present on every screen: overlays (API call, screen code loading), toasts and the version label. */
export function RootLayout() {
  return (
    <>
      <NavigationLoading />
      <Outlet />
      <Toaster />
      <LoadingOverlay />
      <VersionLabel />
    </>
  );
}
