import type { FormEvent } from 'react';
import { Box, Button, Paper, Stack } from '@mui/material';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES, createQueryRequestSchema } from '@pagewright/shared';
import { NameDescriptionFields, useNameDescriptionForm } from '../../../components/name-description-fields';
import { PageHeading } from '../../../components/page-heading';
import { PATHS } from '../../../lib/paths';
import { browserTimeZone, createQuery } from '../api/create-query';
import { queryWizardLocation } from '../wizard-location';

/**
 * /query-extractor (data spec §2): name and description, then the wizard on /Query. The query's
 * date filters count days in the browser's time zone, sent along.
 */
export function NewQueryPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useNameDescriptionForm({
    schema: createQueryRequestSchema,
    uniqueText: MESSAGES['query.list.error.unique'],
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void form.submit(async (values) => {
      const { id } = await createQuery({ ...values, timeZone: browserTimeZone() });
      const location = queryWizardLocation({ queryId: id, ...values, mode: 'new' });
      navigate(location.to, { state: location.state });
    });
  };

  return (
    <Paper sx={{ p: 3, maxWidth: 640, mx: 'auto' }}>
      <PageHeading>{t('page.query.new')}</PageHeading>
      <Box component="form" noValidate onSubmit={submit}>
        <NameDescriptionFields form={form} autoFocus />
        <Stack direction="row" spacing={1} sx={{ mt: 2, justifyContent: 'flex-end' }}>
          <Button onClick={() => navigate(PATHS.dashboard)}>{t('extractors.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={form.isSaving}>
            {t('extractors.create')}
          </Button>
        </Stack>
      </Box>
    </Paper>
  );
}
