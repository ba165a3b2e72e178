import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { forgotPasswordRequestSchema } from '@pagewright/shared/account-screens';
import { isApiError } from '../../../lib/api-client';
import { fieldErrorsOf } from '../../../lib/form-errors';
import { AccountFormActions } from '../../../components/account-form-actions';
import { TextInput } from '../../../components/text-input';
import { PATHS } from '../../../lib/paths';
import { toast } from '../../../lib/toast';
import { requestPasswordReset } from '../api/forgot-password';

export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [isTouched, setIsTouched] = useState(false);

  const emailError = fieldErrorsOf<'username'>(forgotPasswordRequestSchema, { username: email }).username;
  const shownError = isTouched ? emailError : undefined;

  const resetMutation = useMutation({
    mutationFn: requestPasswordReset,
    onError: (error) =>
      toast.error(isApiError(error, 400) ? t('forgot.email.not.found') : t('forgot.internal.error')),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setIsTouched(true);
    if (emailError !== undefined || resetMutation.isPending) return;
    resetMutation.mutate({ username: email.trim() });
  };

  if (resetMutation.isSuccess) {
    return (
      <Box sx={{ textAlign: 'center' }}>
        <Typography variant="h5" component="h1" gutterBottom>
          {t('forgot.heading')}
        </Typography>
        <Alert severity="success" sx={{ mb: 3, textAlign: 'left' }}>
          {t('forgot.check.email')}
        </Alert>
        <Button variant="contained" onClick={() => void navigate(PATHS.login)}>
          {t('forgot.return')}
        </Button>
      </Box>
    );
  }

  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <Typography variant="h5" component="h1" gutterBottom>
        {t('forgot.heading')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('forgot.text')}
      </Typography>
      <TextInput
        label={t('field.email')}
        type="email"
        autoComplete="email"
        autoFocus
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        onBlur={() => email !== '' && setIsTouched(true)}
        error={shownError !== undefined}
        helperText={shownError}
      />
      <AccountFormActions
        submitLabel={t('forgot.submit')}
        isSubmitting={resetMutation.isPending}
        linkTo={PATHS.login}
        linkLabel={t('welcome.back')}
      />
    </Box>
  );
}
