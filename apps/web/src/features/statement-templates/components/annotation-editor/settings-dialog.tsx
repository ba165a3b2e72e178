import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormGroup,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { AnnotationSettings } from './types';

/** The spec's defaults: WASD panning and the highlight box on, crosshairs off. */
export const DEFAULT_SETTINGS: AnnotationSettings = {
  showCrosshairs: false,
  showHighlightBox: true,
  wasdMode: true,
};

/** The settings in the dialog's order, each labelled 'annotation.setting.<name>'. */
const OPTIONS: (keyof AnnotationSettings)[] = ['showCrosshairs', 'showHighlightBox', 'wasdMode'];

/** The editor's settings (spec §2); the video playback speed is not offered: there is no video. */
export function SettingsDialog({
  settings,
  onChange,
  onClose,
}: {
  settings: AnnotationSettings;
  onChange: (settings: AnnotationSettings) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open onClose={onClose} aria-labelledby="annotation-settings-title">
      <DialogTitle id="annotation-settings-title">{t('annotation.settings')}</DialogTitle>
      <DialogContent>
        <FormGroup>
          {OPTIONS.map((key) => (
            <FormControlLabel
              key={key}
              label={t(`annotation.setting.${key}`)}
              control={
                <Checkbox
                  checked={settings[key]}
                  onChange={(event) => onChange({ ...settings, [key]: event.target.checked })}
                />
              }
            />
          ))}
        </FormGroup>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('annotation.settings.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
