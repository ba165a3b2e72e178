import { useState } from 'react';
import { ListItemText, MenuItem, TextField } from '@mui/material';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { DATASET_TYPES, MESSAGES, createDatasetRequestSchema, type DatasetType } from '@pagewright/shared';
import { useNameDescriptionForm } from '../../../components/name-description-fields';
import { NameDescriptionPage } from '../../../components/name-description-page';
import { createDataset } from '../api/create-dataset';
import { datasetWizardLocation } from '../wizard-location';

/**
 * /dataset-extractor (data spec §2): type, name and description, then the wizard on /dataset. An
 * F-Engine type starts with its engine entity's fields (read-only in step 1).
 */
export function NewDatasetPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [type, setType] = useState<DatasetType>('CUSTOM');
  const form = useNameDescriptionForm({
    schema: createDatasetRequestSchema,
    uniqueText: MESSAGES['dataset.list.error.unique'],
  });

  return (
    <NameDescriptionPage
      title={t('page.dataset.new')}
      form={form}
      onCreate={async (values) => {
        const { id } = await createDataset({ type, ...values });
        const location = datasetWizardLocation({ datasetId: id, type, ...values, isEdit: false });
        navigate(location.to, { state: location.state });
      }}
    >
      <TextField
        select
        fullWidth
        margin="normal"
        label={t('datasets.field.type')}
        value={type}
        onChange={(event) => setType(event.target.value as DatasetType)}
        helperText={type === 'CUSTOM' ? undefined : t('datasets.type.hint')}
      >
        {DATASET_TYPES.map((option) => (
          <MenuItem key={option} value={option}>
            <ListItemText primary={t(`datasets.type.${option}`)} />
          </MenuItem>
        ))}
      </TextField>
    </NameDescriptionPage>
  );
}
