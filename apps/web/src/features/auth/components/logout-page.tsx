import { useEffect, useRef } from 'react';
import { Box, CircularProgress, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { afterLogoutPath } from '../../../lib/paths';
import { clearSession, getSession } from '../../../lib/session';
import { logout } from '../api/logout';

/** Revokes the refresh token (failures ignored), forgets the session but not the remembered e-mail. */
export function LogoutPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [searchParams] = useSearchParams();
  const next = afterLogoutPath(searchParams.get('next'));
  const hasStarted = useRef(false);

  useEffect(() => {
    if (hasStarted.current) return;
    hasStarted.current = true;
    const { refreshToken } = getSession();
    const revoke = refreshToken ? logout(refreshToken).catch(() => undefined) : Promise.resolve();
    void revoke.finally(() => {
      clearSession();
      queryClient.clear();
      navigate(next, { replace: true });
    });
  }, [navigate, queryClient, next]);

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
      <CircularProgress size={24} />
      <Typography>{t('logout.pending')}</Typography>
    </Box>
  );
}
