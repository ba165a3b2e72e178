import { useState, type FormEvent } from 'react';
import { Alert, Box, Checkbox, FormControlLabel, Link, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { LoginRequest } from '@pagewright/shared';
import { loginRequestSchema } from '@pagewright/shared/account-screens';
import { AccountFormActions } from '../../../components/account-form-actions';
import { PasswordField } from '../../../components/password-field';
import { TextInput } from '../../../components/text-input';
import { errorText } from '../../../lib/api-client';
import { fieldErrorsOf, hasErrors } from '../../../lib/form-errors';
import { PATHS } from '../../../lib/paths';
import { getSession, setRememberMeUser } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { login } from '../api/login';
import { useCompleteLogin } from '../hooks/use-complete-login';

type LoginField = keyof LoginRequest;

export function LoginPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const completeLogin = useCompleteLogin();
  const rememberedUser = getSession().rememberMeUser;

  const [form, setForm] = useState<LoginRequest>({ username: rememberedUser ?? '', password: '' });
  const [isRemembered, setIsRemembered] = useState(rememberedUser !== null);
  const [isSubmitted, setIsSubmitted] = useState(false);

  // Only required-field errors exist here: they show once the user tries to sign in.
  const errors = fieldErrorsOf<LoginField>(loginRequestSchema, form);
  const shownError = (field: LoginField) => (isSubmitted ? errors[field] : undefined);

  const loginMutation = useMutation({
    mutationFn: login,
    onSuccess: async (response, credentials) => {
      setRememberMeUser(isRemembered ? credentials.username : null);
      await completeLogin(response);
    },
    onError: (error) => toast.error(errorText(error)),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setIsSubmitted(true);
    if (hasErrors(errors) || loginMutation.isPending) return;
    loginMutation.mutate({ username: form.username.trim(), password: form.password });
  };

  const onRememberChange = (checked: boolean) => {
    setIsRemembered(checked);
    if (!checked) setRememberMeUser(null);
  };

  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <Typography variant="h5" component="h1" gutterBottom>
        {t('login.heading')}
      </Typography>
      {searchParams.get('errorToken') !== null && (
        <Alert severity="warning" sx={{ mb: 1 }}>
          {t('login.error.session.expired')}
        </Alert>
      )}
      <TextInput
        label={t('field.email')}
        type="email"
        autoComplete="username"
        autoFocus={rememberedUser === null}
        value={form.username}
        onChange={(event) => setForm({ ...form, username: event.target.value })}
        error={shownError('username') !== undefined}
        helperText={shownError('username')}
      />
      <PasswordField
        label={t('field.password')}
        autoComplete="current-password"
        autoFocus={rememberedUser !== null}
        value={form.password}
        onChange={(event) => setForm({ ...form, password: event.target.value })}
        error={shownError('password') !== undefined}
        helperText={shownError('password')}
      />
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mt: 1 }}>
        <FormControlLabel
          control={
            <Checkbox checked={isRemembered} onChange={(event) => onRememberChange(event.target.checked)} />
          }
          label={t('login.remember.me')}
        />
        <Link component={RouterLink} to={PATHS.forgotPassword} underline="hover">
          {t('login.forgot.link')}
        </Link>
      </Box>
      <AccountFormActions
        submitLabel={t('login.submit')}
        isSubmitting={loginMutation.isPending}
        linkTo={PATHS.signUp}
        linkLabel={t('login.register.link')}
      />
    </Box>
  );
}
