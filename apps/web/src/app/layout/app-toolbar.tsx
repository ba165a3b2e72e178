import { AppBar, Box, Button, Toolbar, Typography } from '@mui/material';
import HelpOutlined from '@mui/icons-material/HelpOutlined';
import Logout from '@mui/icons-material/Logout';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PATHS } from '../../lib/paths';
import { AppBreadcrumbs } from './app-breadcrumbs';

export function AppToolbar() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <AppBar
      position="sticky"
      color="inherit"
      elevation={1}
      sx={{ borderTop: 3, borderColor: 'primary.main' }}
    >
      <Toolbar sx={{ gap: 3 }}>
        <Typography
          variant="h6"
          component={RouterLink}
          to={PATHS.dashboard}
          sx={{ color: 'primary.main', fontWeight: 700, textDecoration: 'none', whiteSpace: 'nowrap' }}
        >
          {t('app.title')}
        </Typography>
        <Box sx={{ flexGrow: 1, minWidth: 0 }}>
          <AppBreadcrumbs />
        </Box>
        <Box sx={{ display: 'flex', gap: 1 }}>
          <Button onClick={() => void navigate(PATHS.help)} startIcon={<HelpOutlined />} color="inherit">
            {t('help.title')}
          </Button>
          <Button
            onClick={() => void navigate(PATHS.settings)}
            startIcon={<SettingsOutlined />}
            color="inherit"
          >
            {t('settings.title')}
          </Button>
          <Button onClick={() => void navigate(PATHS.logout)} startIcon={<Logout />} color="primary">
            {t('toolbar.logout')}
          </Button>
        </Box>
      </Toolbar>
    </AppBar>
  );
}
