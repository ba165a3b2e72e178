import { createTheme } from '@mui/material/styles';

/** Light theme with orange accents (automation spec §2 "Shell"). */
export const theme = createTheme({
  palette: {
    mode: 'light',
    primary: { main: '#ef6c00', light: '#ff9d3f', dark: '#b53d00', contrastText: '#ffffff' },
    secondary: { main: '#455a64' },
    background: { default: '#faf7f4', paper: '#ffffff' },
  },
  shape: { borderRadius: 8 },
  typography: {
    fontFamily: '"Roboto", "Segoe UI", "Helvetica Neue", Arial, sans-serif',
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiTextField: { defaultProps: { fullWidth: true, margin: 'normal' } },
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiCard: { defaultProps: { variant: 'outlined' } },
    // A tooltip lets the pointer through: one shown over the page view or the annotation canvas
    // must not swallow the click or drag the user aimed at what lies beneath it.
    MuiTooltip: { defaultProps: { disableInteractive: true } },
  },
});
