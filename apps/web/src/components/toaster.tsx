import { useEffect } from 'react';
import { Alert, Box, Stack } from '@mui/material';
import { dismissToast, useToasts, type Toast } from '../lib/toast';

const TOAST_DURATION_MS = 6000;

function ToastItem({ toast }: { toast: Toast }) {
  useEffect(() => {
    const timer = window.setTimeout(() => dismissToast(toast.id), TOAST_DURATION_MS);
    return () => window.clearTimeout(timer);
  }, [toast.id]);

  return (
    <Alert
      severity={toast.severity}
      variant="filled"
      elevation={6}
      onClose={() => dismissToast(toast.id)}
      data-testid="toast"
      data-severity={toast.severity}
      sx={{ pointerEvents: 'auto', minWidth: 320, maxWidth: 560 }}
    >
      {toast.text}
    </Alert>
  );
}

/** At most MAX_TOASTS messages at once, stacked at the top centre (the store enforces the limit). */
export function Toaster() {
  const toasts = useToasts();
  return (
    <Box
      sx={{
        position: 'fixed',
        top: 16,
        left: '50%',
        transform: 'translateX(-50%)',
        zIndex: (theme) => theme.zIndex.snackbar,
        pointerEvents: 'none',
      }}
    >
      <Stack spacing={1} sx={{ alignItems: 'center' }}>
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} />
        ))}
      </Stack>
    </Box>
  );
}
