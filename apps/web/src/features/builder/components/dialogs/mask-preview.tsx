import { Box, CircularProgress, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../lib/api-client';
import type { MaskPreview } from '../../hooks/use-mask-preview';

/** The spec's 'Error to apply mask', with the server's reason when it sent one. */
function maskErrorText(error: unknown, specText: string): string {
  if (!(error instanceof ApiError) || !error.hasServerMessage) return specText;
  return error.message.startsWith(specText) ? error.message : `${specText}: ${error.message}`;
}

/** One line under a mask form: what the picked element reads as with the mask typed so far. */
export function MaskPreviewLine({ preview, hasElement }: { preview: MaskPreview; hasElement: boolean }) {
  const { t } = useTranslation();
  let content;
  if (!hasElement) {
    content = <Typography variant="body2">{t('dialogs.mask.preview.no.target')}</Typography>;
  } else if (preview.isPending) {
    content = (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <CircularProgress size={14} aria-hidden />
        <Typography variant="body2">{t('dialogs.mask.preview.pending')}</Typography>
      </Box>
    );
  } else if (preview.error) {
    content = (
      <Typography variant="body2" color="error">
        {maskErrorText(preview.error, t('extractor.mask.error'))}
      </Typography>
    );
  } else if (preview.result) {
    content = (
      <Typography variant="body2">
        {t('dialogs.mask.preview.result', {
          text: preview.result.text,
          value: String(preview.result.value),
        })}
      </Typography>
    );
  } else {
    content = null;
  }
  return (
    <Box
      role="status"
      aria-label={t('dialogs.mask.preview')}
      sx={{
        minHeight: 24,
        color: 'text.secondary',
        bgcolor: 'action.hover',
        borderRadius: 1,
        px: 1.5,
        py: 0.75,
      }}
    >
      {content}
    </Box>
  );
}
