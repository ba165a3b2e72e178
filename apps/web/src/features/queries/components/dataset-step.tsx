import {
  Alert,
  Chip,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  Stack,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { QueryDataset } from '@pagewright/shared';

/** Step 1: the caller's datasets, one to choose; those without extracted rows yet say so. */
export function DatasetStep({
  datasets,
  chosenId,
  notice,
  onChoose,
}: {
  datasets: readonly QueryDataset[];
  chosenId: string | null;
  notice: string | null;
  onChoose: (datasetId: string) => void;
}) {
  const { t } = useTranslation();
  if (datasets.length === 0) return <Alert severity="info">{t('queries.datasets.empty')}</Alert>;
  return (
    <FormControl error={notice !== null} fullWidth>
      <FormLabel id="query-datasets-label">{t('queries.datasets.label')}</FormLabel>
      {notice && (
        <Alert severity="error" sx={{ my: 1 }}>
          {notice}
        </Alert>
      )}
      <RadioGroup
        aria-labelledby="query-datasets-label"
        value={chosenId ?? ''}
        onChange={(event) => onChoose(event.target.value)}
      >
        {datasets.map((dataset) => (
          <FormControlLabel
            key={dataset.id}
            value={dataset.id}
            control={<Radio />}
            label={
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <span>{dataset.name}</span>
                <Typography component="span" variant="body2" color="text.secondary">
                  {dataset.description}
                </Typography>
                {!dataset.hasData && <Chip size="small" label={t('queries.datasets.no.data')} />}
              </Stack>
            }
          />
        ))}
      </RadioGroup>
    </FormControl>
  );
}
