import { useState } from 'react';
import {
  Alert,
  Card,
  CardContent,
  CardHeader,
  CircularProgress,
  FormControlLabel,
  FormGroup,
  Grid,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { DASHBOARD_PANELS, USER_SETTINGS, type UserSettingName } from '@pagewright/shared';
import { errorText } from '../../../lib/api-client';
import { useUserSettings } from '../api/get-user-settings';
import { useUpdateUserSetting } from '../api/update-user-setting';

/** Each flag once, in dashboard order (datasets and queries share one flag). */
const PANEL_SETTINGS = [...new Set(DASHBOARD_PANELS.map((panel) => panel.setting))];
const INTERVAL_SETTINGS = [
  'listRefreshInterval',
  'checkImageRefreshInterval',
] as const satisfies readonly UserSettingName[];
type SwitchSettingName = (typeof PANEL_SETTINGS)[number] | 'readOnlyEdit';

function SettingSwitch({ name, value }: { name: SwitchSettingName; value: string }) {
  const { t } = useTranslation();
  const update = useUpdateUserSetting();
  // The clicked state shows until the save settles: the cached setting changes only after the
  // mutation's async start, and a controlled switch left unchanged until then springs back.
  const [clickedState, setClickedState] = useState<boolean>();
  return (
    <FormControlLabel
      control={
        <Switch
          checked={clickedState ?? value === 'true'}
          onChange={(event) => {
            setClickedState(event.target.checked);
            // Settled: the saved value, or the old one after a refusal, comes from the cache.
            update.mutate(
              { name, value: String(event.target.checked) },
              { onSettled: () => setClickedState(undefined) },
            );
          }}
        />
      }
      label={t(`setting.${name}`)}
    />
  );
}

/** A millisecond setting, saved when the field is left (or Enter is pressed) with a valid value. */
function IntervalSettingField({ name, value }: { name: (typeof INTERVAL_SETTINGS)[number]; value: string }) {
  const { t } = useTranslation();
  const update = useUpdateUserSetting();
  const [draft, setDraft] = useState(value);
  const check = USER_SETTINGS[name].schema.safeParse(draft);
  const error = check.success ? undefined : check.error.issues[0]?.message;

  const save = () => {
    if (error === undefined && draft !== value) update.mutate({ name, value: draft });
  };

  return (
    <TextField
      label={t(`setting.${name}`)}
      type="number"
      value={draft}
      onChange={(event) => setDraft(event.target.value)}
      onBlur={save}
      onKeyDown={(event) => {
        if (event.key === 'Enter') save();
      }}
      error={error !== undefined}
      helperText={error}
      slotProps={{ htmlInput: { min: 500, step: 500 } }}
    />
  );
}

export function UserSettingsCard() {
  const { t } = useTranslation();
  const settings = useUserSettings();

  return (
    <Card data-testid="user-settings">
      <CardHeader
        title={t('settings.preferences')}
        slotProps={{ title: { variant: 'h6', component: 'h2' } }}
      />
      <CardContent sx={{ pt: 0 }}>
        {settings.isPending && <CircularProgress size={24} />}
        {settings.isError && <Alert severity="error">{errorText(settings.error)}</Alert>}
        {settings.data && (
          <Grid container spacing={4}>
            <Grid size={{ xs: 12, md: 6 }}>
              <Typography variant="subtitle1" component="h3" gutterBottom>
                {t('settings.panels')}
              </Typography>
              <FormGroup>
                {PANEL_SETTINGS.map((name) => (
                  <SettingSwitch key={name} name={name} value={settings.data[name]} />
                ))}
              </FormGroup>
            </Grid>
            <Grid size={{ xs: 12, md: 6 }}>
              <Typography variant="subtitle1" component="h3" gutterBottom>
                {t('settings.behaviour')}
              </Typography>
              <FormGroup>
                <SettingSwitch name="readOnlyEdit" value={settings.data.readOnlyEdit} />
              </FormGroup>
              {INTERVAL_SETTINGS.map((name) => (
                <IntervalSettingField
                  key={`${name}:${settings.data[name]}`}
                  name={name}
                  value={settings.data[name]}
                />
              ))}
            </Grid>
          </Grid>
        )}
      </CardContent>
    </Card>
  );
}
