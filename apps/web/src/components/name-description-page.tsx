import type { FormEvent, ReactNode } from 'react';
import { Box, Button, Paper, Stack } from '@mui/material';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PATHS } from '../lib/paths';
import {
  NameDescriptionFields,
  type NameDescription,
  type useNameDescriptionForm,
} from './name-description-fields';
import { PageHeading } from './page-heading';

/**
 * The first page of a wizard that starts with a name and a description (new dataset, query,
 * scheduler): `children` go above the two fields; Cancel returns to the dashboard, Create submits
 * through the form (its errors show under the fields).
 */
export function NameDescriptionPage({
  title,
  form,
  onCreate,
  submitLabel,
  children,
}: {
  title: string;
  form: ReturnType<typeof useNameDescriptionForm>;
  onCreate: (values: NameDescription) => Promise<void>;
  submitLabel?: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void form.submit(onCreate);
  };
  return (
    <Paper sx={{ p: 3, maxWidth: 640, mx: 'auto' }}>
      <PageHeading>{title}</PageHeading>
      <Box component="form" noValidate onSubmit={submit}>
        {children}
        <NameDescriptionFields form={form} autoFocus />
        <Stack direction="row" spacing={1} sx={{ mt: 2, justifyContent: 'flex-end' }}>
          <Button onClick={() => void navigate(PATHS.dashboard)}>{t('extractors.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={form.isSaving}>
            {submitLabel ?? t('extractors.create')}
          </Button>
        </Stack>
      </Box>
    </Paper>
  );
}
