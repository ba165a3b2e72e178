import type { ReactNode } from 'react';
import { Typography } from '@mui/material';

export function PageHeading({ children }: { children: ReactNode }) {
  return (
    <Typography variant="h5" component="h1" sx={{ mb: 2, fontWeight: 500 }}>
      {children}
    </Typography>
  );
}
