import { Box, Paper, Typography } from '@mui/material';
import { Outlet } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

/** Account screens (login, sign-up, password, confirmation): a centred card under the product name. */
export function AccountLayout() {
  const { t } = useTranslation();
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        px: 2,
        py: 4,
        background: (theme) =>
          `linear-gradient(160deg, ${theme.palette.background.default} 55%, #ffe0b2 100%)`,
      }}
    >
      <Typography variant="h4" component="div" sx={{ color: 'primary.main', fontWeight: 700, mb: 3 }}>
        {t('app.title')}
      </Typography>
      <Paper
        elevation={3}
        sx={{ width: '100%', maxWidth: 440, p: 4, borderTop: 4, borderColor: 'primary.main' }}
      >
        <Outlet />
      </Paper>
    </Box>
  );
}
