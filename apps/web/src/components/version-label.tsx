import { Typography } from '@mui/material';

/** `0.15.1 (<short build hash>)`, both values defined by vite.config.ts at build time. */
export const VERSION_TEXT = `${__APP_VERSION__} (${__BUILD_HASH__})`;

export function VersionLabel() {
  return (
    <Typography
      component="footer"
      variant="caption"
      color="text.secondary"
      data-testid="version-label"
      sx={{ position: 'fixed', right: 12, bottom: 6, zIndex: 1, pointerEvents: 'none' }}
    >
      {VERSION_TEXT}
    </Typography>
  );
}
