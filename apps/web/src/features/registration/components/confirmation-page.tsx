import { useEffect } from 'react';
import { Box, CircularProgress, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '@pagewright/shared';
import { ApiError } from '../../../lib/api-client';
import { PATHS } from '../../../lib/paths';
import { toast } from '../../../lib/toast';
import { confirmRegistrationQueryOptions } from '../api/confirm-registration';

/**
 * Confirms the sign-up token from the e-mail link. The answer is a success only when it carries the
 * success text (data spec §2); either way the user continues to the login screen.
 */
export function ConfirmationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token = '' } = useParams();
  const { data, error, isSuccess, isError } = useQuery({
    ...confirmRegistrationQueryOptions(token),
    enabled: token.length > 0,
  });

  useEffect(() => {
    if (isSuccess) {
      if (data.includes(MESSAGES['confirmation.success'])) toast.success(data);
      else toast.error(data);
    } else if (isError) {
      toast.error(
        error instanceof ApiError && error.hasServerMessage ? error.message : t('confirmation.error'),
      );
    } else if (token.length > 0) {
      return;
    }
    navigate(PATHS.login, { replace: true });
  }, [isSuccess, isError, data, error, token, navigate, t]);

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
      <CircularProgress size={24} />
      <Typography>{t('confirmation.pending')}</Typography>
    </Box>
  );
}
