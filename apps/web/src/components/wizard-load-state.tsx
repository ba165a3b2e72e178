import { Alert, Box, Button, CircularProgress } from '@mui/material';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PATHS } from '../lib/paths';

/** A wizard while its draft or saved item loads. */
export function WizardLoading() {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
      <CircularProgress aria-label={t('app.loading')} />
    </Box>
  );
}

/** A wizard that cannot go on (its draft ended, its item is gone): why, and the way back. */
export function WizardEnded({ text }: { text: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" onClick={() => void navigate(PATHS.dashboard)}>
          {t('wizard.ended.back')}
        </Button>
      }
    >
      {text}
    </Alert>
  );
}
