import { Box, Button, Typography } from '@mui/material';
import MarkEmailReadOutlined from '@mui/icons-material/MarkEmailReadOutlined';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PATHS } from '../../../lib/paths';

export function WelcomePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Box sx={{ textAlign: 'center' }}>
      <MarkEmailReadOutlined color="primary" sx={{ fontSize: 56, mb: 1 }} />
      <Typography variant="h5" component="h1" gutterBottom>
        {t('welcome.heading')}
      </Typography>
      <Typography sx={{ mb: 3 }}>{t('welcome.text')}</Typography>
      <Button variant="contained" onClick={() => void navigate(PATHS.login)}>
        {t('welcome.back')}
      </Button>
    </Box>
  );
}
