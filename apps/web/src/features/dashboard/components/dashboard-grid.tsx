import type { ReactNode } from 'react';
import { Alert, Button, Grid, Stack, Typography } from '@mui/material';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import { useTranslation } from 'react-i18next';
import {
  DASHBOARD_PANELS,
  FENGINE_VISIBLE_PANELS,
  type UserSettingName,
  type UserSettings,
} from '@pagewright/shared';
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
  onShowPanel,
}: {
  settings: UserSettings;
  isRemoteEngine: boolean;
  panels?: Partial<Record<string, ReactNode>>;
  /** Turns a hidden panel's setting on (the dashboard offers every feature it hides). */
  onShowPanel?: (setting: UserSettingName) => void;
}) {
  const { t } = useTranslation();
  const available = DASHBOARD_PANELS.filter(
    (panel) => !isRemoteEngine || FENGINE_VISIBLE_PANELS.includes(panel.id),
  );
  const panels = available.filter((panel) => settings[panel.setting] === 'true');
  // One button a setting (Datasets and Queries share theirs), named by its panels.
  const hidden = [
    ...new Set(available.filter((panel) => settings[panel.setting] !== 'true').map((p) => p.setting)),
  ].map((setting) => ({
    setting,
    title: available
      .filter((panel) => panel.setting === setting)
      .map((panel) => panel.title)
      .join(' and '),
  }));

  const hiddenBar = onShowPanel && hidden.length > 0 && (
    <Stack
      direction="row"
      spacing={1}
      useFlexGap
      sx={{ mt: 3, alignItems: 'center', flexWrap: 'wrap' }}
      aria-label={t('dashboard.hidden.panels')}
      data-testid="hidden-panels"
    >
      <Typography variant="body2" color="text.secondary">
        {t('dashboard.hidden.panels')}
      </Typography>
      {hidden.map(({ setting, title }) => (
        <Button
          key={setting}
          size="small"
          variant="outlined"
          startIcon={<VisibilityOutlined />}
          onClick={() => onShowPanel(setting)}
        >
          {t('dashboard.show.panel', { title })}
        </Button>
      ))}
    </Stack>
  );

  if (panels.length === 0)
    return (
      <>
        <Alert severity="info">{t('dashboard.no.panels')}</Alert>
        {hiddenBar}
      </>
    );

  return (
    <>
      <Grid container spacing={3} data-testid="dashboard-grid">
        {panels.map((panel) => (
          <Grid key={panel.id} size={{ xs: 12, md: 4 }}>
            {provided[panel.id] ?? <DashboardPanel id={panel.id} title={panel.title} />}
          </Grid>
        ))}
      </Grid>
      {hiddenBar}
    </>
  );
}
