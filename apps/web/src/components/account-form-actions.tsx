import { Button, Link, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';

interface AccountFormActionsProps {
  submitLabel: string;
  isSubmitting: boolean;
  /** The link under the button to the neighbouring account screen (sign in, sign up...). */
  linkTo: string;
  linkLabel: string;
}

/** The bottom of every account form: the full-width submit button and one link below it. */
export function AccountFormActions({
  submitLabel,
  isSubmitting,
  linkTo,
  linkLabel,
}: AccountFormActionsProps) {
  return (
    <>
      <Button type="submit" variant="contained" size="large" fullWidth sx={{ mt: 2 }} disabled={isSubmitting}>
        {submitLabel}
      </Button>
      <Typography variant="body2" sx={{ mt: 3, textAlign: 'center' }}>
        <Link component={RouterLink} to={linkTo} underline="hover">
          {linkLabel}
        </Link>
      </Typography>
    </>
  );
}
