import { Box, Container } from '@mui/material';
import { Outlet } from 'react-router-dom';
import { PendingAskHost } from '../../features/asks/components/pending-ask-host';
import { useStoredUserId } from '../../features/auth/hooks/use-stored-user-id';
// The app's own labels: every screen of this frame uses them (the login page does not load them).
import '../../lib/i18n';
import { useSession } from '../../lib/session';
import { AppToolbar } from './app-toolbar';

/** Signed-in screens. The top bar is hidden in remote-engine mode and for visitors without a session. */
export function AppLayout() {
  const { accessToken, isRemoteEngine } = useSession();
  useStoredUserId();
  const isToolbarShown = accessToken !== null && !isRemoteEngine;
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      {isToolbarShown && <AppToolbar />}
      <Container maxWidth="xl" component="main" sx={{ py: 3, pb: 5 }}>
        <Outlet />
      </Container>
      {accessToken !== null && <PendingAskHost />}
    </Box>
  );
}
