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
import type { AnnotationSettings } from './types';

/** The spec's defaults: WASD panning and the highlight box on, crosshairs off. */
export const DEFAULT_SETTINGS: AnnotationSettings = {
  showCrosshairs: false,
  showHighlightBox: true,
  wasdMode: true,
};

const OPTIONS: { key: keyof AnnotationSettings; label: string }[] = [
  { key: 'showCrosshairs', label: 'Show crosshairs' },
  { key: 'showHighlightBox', label: 'Show highlight box' },
  { key: 'wasdMode', label: 'WASD panning' },
];

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
  return (
    <Dialog open onClose={onClose} aria-labelledby="annotation-settings-title">
      <DialogTitle id="annotation-settings-title">Settings</DialogTitle>
      <DialogContent>
        <FormGroup>
          {OPTIONS.map(({ key, label }) => (
            <FormControlLabel
              key={key}
              label={label}
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
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
