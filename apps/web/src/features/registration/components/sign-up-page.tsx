import { useState, type FormEvent } from 'react';
import { Box, Stack, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { SignUpRequest } from '@pagewright/shared';
import { signUpRequestSchema } from '@pagewright/shared/account-screens';
import { AccountFormActions } from '../../../components/account-form-actions';
import { PasswordField } from '../../../components/password-field';
import { TextInput } from '../../../components/text-input';
import { ApiError } from '../../../lib/api-client';
import { fieldErrorsOf, hasErrors, type FieldErrors } from '../../../lib/form-errors';
import { PATHS } from '../../../lib/paths';
import { toast } from '../../../lib/toast';
import { signUp } from '../api/sign-up';
import { useEmailAvailability } from '../hooks/use-email-availability';

type SignUpField = 'firstName' | 'lastName' | 'email' | 'password' | 'retypePassword';
type SignUpForm = Record<SignUpField, string>;

const EMPTY_FORM: SignUpForm = { firstName: '', lastName: '', email: '', password: '', retypePassword: '' };

/** The API names the e-mail `username` (it is the login name); the form calls it e-mail. */
function formFieldOf(apiField: string | null): SignUpField | null {
  if (apiField === 'username') return 'email';
  if (apiField === 'firstName' || apiField === 'lastName' || apiField === 'password') return apiField;
  return null;
}

export function SignUpPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form, setForm] = useState<SignUpForm>(EMPTY_FORM);
  const [touched, setTouched] = useState<Partial<Record<SignUpField, boolean>>>({});
  const [isSubmitted, setIsSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors<SignUpField>>({});
  const [takenEmails, setTakenEmails] = useState<readonly string[]>([]);

  const email = form.email.trim();
  const { isTaken, ensureChecked } = useEmailAvailability(email);
  const isEmailTaken = isTaken || takenEmails.includes(email);

  const request: SignUpRequest = {
    username: email,
    password: form.password,
    firstName: form.firstName,
    lastName: form.lastName,
  };
  const schemaErrors = fieldErrorsOf<keyof SignUpRequest>(signUpRequestSchema, request);
  const errors: FieldErrors<SignUpField> = {
    firstName: serverErrors.firstName ?? schemaErrors.firstName,
    lastName: serverErrors.lastName ?? schemaErrors.lastName,
    email:
      serverErrors.email ?? schemaErrors.username ?? (isEmailTaken ? t('signup.email.exists') : undefined),
    password: serverErrors.password ?? schemaErrors.password,
    retypePassword: form.retypePassword !== form.password ? t('signup.password.different') : undefined,
  };
  const shownError = (field: SignUpField): string | undefined => {
    if (isSubmitted || touched[field]) return errors[field];
    // A taken address is reported as soon as the check answers, before the field is left.
    return field === 'email' && isEmailTaken ? t('signup.email.exists') : undefined;
  };

  const signUpMutation = useMutation({
    mutationFn: signUp,
    onSuccess: () => {
      toast.info(t('signup.check.email'));
      navigate(PATHS.welcome);
    },
    onError: (error) => {
      const field = error instanceof ApiError ? formFieldOf(error.field) : null;
      if (error instanceof ApiError && error.hasServerMessage && field) {
        setServerErrors((current) => ({ ...current, [field]: error.message }));
        return;
      }
      toast.error(error instanceof ApiError && error.hasServerMessage ? error.message : t('signup.error'));
    },
  });

  const change = (field: SignUpField, value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    setServerErrors((current) => ({ ...current, [field]: undefined }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setIsSubmitted(true);
    if (signUpMutation.isPending) return;
    const isAvailable = await ensureChecked();
    if (isAvailable === false) setTakenEmails((current) => [...current, email]);
    if (hasErrors(errors) || isAvailable === false) {
      toast.error(t('signup.complete.fields'));
      return;
    }
    signUpMutation.mutate({ ...request, firstName: form.firstName.trim(), lastName: form.lastName.trim() });
  };

  const fieldProps = (field: SignUpField) => ({
    value: form[field],
    onChange: (event: { target: { value: string } }) => change(field, event.target.value),
    // Leaving an empty field is not an error yet (and must not shift the layout under the pointer).
    onBlur: () => {
      if (form[field] !== '') setTouched((current) => ({ ...current, [field]: true }));
    },
    error: shownError(field) !== undefined,
    helperText: shownError(field),
  });

  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
      <Typography variant="h5" component="h1" gutterBottom>
        {t('signup.heading')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0, sm: 2 }}>
        <TextInput
          label={t('field.first.name')}
          autoComplete="given-name"
          autoFocus
          {...fieldProps('firstName')}
        />
        <TextInput label={t('field.last.name')} autoComplete="family-name" {...fieldProps('lastName')} />
      </Stack>
      <TextInput label={t('field.email')} type="email" autoComplete="email" {...fieldProps('email')} />
      <PasswordField label={t('field.password')} autoComplete="new-password" {...fieldProps('password')} />
      <PasswordField
        label={t('field.retype.password')}
        autoComplete="new-password"
        {...fieldProps('retypePassword')}
      />
      <AccountFormActions
        submitLabel={t('signup.submit')}
        isSubmitting={signUpMutation.isPending}
        linkTo={PATHS.login}
        linkLabel={t('signup.login.link')}
      />
    </Box>
  );
}
