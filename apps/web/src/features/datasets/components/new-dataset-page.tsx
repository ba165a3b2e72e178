import { useState, type FormEvent } from 'react';
import { Box, Button, ListItemText, MenuItem, Paper, Stack, TextField } from '@mui/material';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { DATASET_TYPES, MESSAGES, createDatasetRequestSchema, type DatasetType } from '@pagewright/shared';
import { NameDescriptionFields, useNameDescriptionForm } from '../../../components/name-description-fields';
import { PageHeading } from '../../../components/page-heading';
import { PATHS } from '../../../lib/paths';
import { createDataset } from '../api/create-dataset';
import { datasetWizardLocation } from '../wizard-location';

/**
 * /dataset-extractor (data spec §2): type, name and description, then the wizard on /dataset. Only
 * Custom can be chosen: the F-Engine types show, disabled, with the reason (the API refuses them).
 */
export function NewDatasetPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [type, setType] = useState<DatasetType>('CUSTOM');
  const form = useNameDescriptionForm({
    schema: createDatasetRequestSchema,
    uniqueText: MESSAGES['dataset.list.error.unique'],
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void form.submit(async (values) => {
      const { id } = await createDataset({ type, ...values });
      const location = datasetWizardLocation({ datasetId: id, type, ...values, isEdit: false });
      navigate(location.to, { state: location.state });
    });
  };

  return (
    <Paper sx={{ p: 3, maxWidth: 640, mx: 'auto' }}>
      <PageHeading>{t('page.dataset.new')}</PageHeading>
      <Box component="form" noValidate onSubmit={submit}>
        <TextField
          select
          fullWidth
          margin="normal"
          label={t('datasets.field.type')}
          value={type}
          onChange={(event) => setType(event.target.value as DatasetType)}
          helperText={MESSAGES['dataset.type.unavailable']}
        >
          {DATASET_TYPES.map((option) => (
            <MenuItem key={option} value={option} disabled={option !== 'CUSTOM'}>
              <ListItemText primary={t(`datasets.type.${option}`)} />
            </MenuItem>
          ))}
        </TextField>
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
