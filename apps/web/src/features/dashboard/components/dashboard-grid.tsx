import { Alert, Grid } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { DASHBOARD_PANELS, FENGINE_VISIBLE_PANELS, type UserSettings } from '@pagewright/shared';
import { DashboardPanel } from './dashboard-panel';

/**
 * The panel grid, each panel a third of the width. A panel shows when its setting flag is on; in
 * remote-engine (F-engine) mode only messaging and navigators can show.
 */
export function DashboardGrid({
  settings,
  isRemoteEngine,
}: {
  settings: UserSettings;
  isRemoteEngine: boolean;
}) {
  const { t } = useTranslation();
  const panels = DASHBOARD_PANELS.filter(
    (panel) =>
      settings[panel.setting] === 'true' && (!isRemoteEngine || FENGINE_VISIBLE_PANELS.includes(panel.id)),
  );

  if (panels.length === 0) return <Alert severity="info">{t('dashboard.no.panels')}</Alert>;

  return (
    <Grid container spacing={3} data-testid="dashboard-grid">
      {panels.map((panel) => (
        <Grid key={panel.id} size={{ xs: 12, md: 4 }}>
          <DashboardPanel id={panel.id} title={panel.title} />
        </Grid>
      ))}
    </Grid>
  );
}
