import type { ReactNode } from 'react';
import { Alert, Grid } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { DASHBOARD_PANELS, FENGINE_VISIBLE_PANELS, type UserSettings } from '@pagewright/shared';
import { DashboardPanel } from './dashboard-panel';

/**
 * The panel grid, each panel a third of the width. A panel shows when its setting flag is on; in
 * remote-engine (F-engine) mode only messaging and navigators can show. `panels` holds the panels
 * other features provide (composed by the dashboard route), by DASHBOARD_PANELS id; the others
 * show the empty placeholder panel.
 */
export function DashboardGrid({
  settings,
  isRemoteEngine,
  panels: provided = {},
}: {
  settings: UserSettings;
  isRemoteEngine: boolean;
  panels?: Partial<Record<string, ReactNode>>;
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
          {provided[panel.id] ?? <DashboardPanel id={panel.id} title={panel.title} />}
        </Grid>
      ))}
    </Grid>
  );
}
