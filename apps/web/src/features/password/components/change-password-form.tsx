import { useState, type FormEvent } from 'react';
import { Box, Button } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { isPasswordValid } from '@pagewright/shared';
import { PasswordField } from '../../../components/password-field';
import { ApiError } from '../../../lib/api-client';
import { PATHS } from '../../../lib/paths';
import { setTempPasswordSet } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { changePassword } from '../api/change-password';

/** The change-password form of the dashboard (temporary password) and of the settings card. */
export function ChangePasswordForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [retypedPassword, setRetypedPassword] = useState('');
  const [touched, setTouched] = useState({ password: false, retyped: false });
  const [isSubmitted, setIsSubmitted] = useState(false);

  const isValid = isPasswordValid(password);
  const isSame = password === retypedPassword;
  const isPasswordErrorShown = (isSubmitted || touched.password) && !isValid;
  const isRetypeErrorShown = (isSubmitted || touched.retyped) && !isSame;

  const changeMutation = useMutation({
    mutationFn: changePassword,
    onSuccess: () => {
      toast.success(t('password.changed'));
      setTempPasswordSet(false);
      setPassword('');
      setRetypedPassword('');
      setTouched({ password: false, retyped: false });
      setIsSubmitted(false);
      navigate(PATHS.dashboard);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400) toast.error(t('password.not.valid'));
      else if (error instanceof ApiError && error.status === 422 && error.hasServerMessage)
        toast.error(error.message);
      else toast.error(t('password.server.error'));
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setIsSubmitted(true);
    if (!isValid || !isSame || changeMutation.isPending) return;
    changeMutation.mutate({ password });
  };

  return (
    <Box component="form" noValidate onSubmit={onSubmit} sx={{ maxWidth: 480 }}>
      <PasswordField
        label={t('field.new.password')}
        autoComplete="new-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        onBlur={() => password !== '' && setTouched((current) => ({ ...current, password: true }))}
        error={isPasswordErrorShown}
        helperText={t('signup.password.rule')}
      />
      <PasswordField
        label={t('field.retype.new.password')}
        autoComplete="new-password"
        value={retypedPassword}
        onChange={(event) => setRetypedPassword(event.target.value)}
        onBlur={() => retypedPassword !== '' && setTouched((current) => ({ ...current, retyped: true }))}
        error={isRetypeErrorShown}
        helperText={isRetypeErrorShown ? t('signup.password.different') : undefined}
      />
      <Button type="submit" variant="contained" sx={{ mt: 2 }} disabled={changeMutation.isPending}>
        {t('settings.change.password')}
      </Button>
    </Box>
  );
}
