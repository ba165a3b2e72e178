import { Box, Chip, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ScreenShareView } from '@pagewright/shared';
import { formatTimestamp } from './format-timestamp';

const STATUS_COLOR = {
  EXECUTING: 'warning',
  SUCCESS: 'success',
  ERROR: 'error',
  STOPPED: 'default',
} as const;

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0, wordBreak: 'break-all' }}>
        {children}
      </Typography>
    </>
  );
}

/** Who shares what: user's full name, navigator name, status, time of the latest step and its page URL. */
export function ScreenShareSummary({ view }: { view: ScreenShareView }) {
  const { t } = useTranslation();
  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', mb: 1.5 }}>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 500, wordBreak: 'break-word' }}>
          {view.name}
        </Typography>
        <Chip
          size="small"
          color={STATUS_COLOR[view.status]}
          label={t(`screen.share.status.${view.status}`)}
          aria-label={`${t('screen.share.status')}: ${t(`screen.share.status.${view.status}`)}`}
        />
      </Box>
      <Box
        component="dl"
        sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}
      >
        <Detail label={t('screen.share.user')}>{view.userFullName}</Detail>
        <Detail label={t('screen.share.timestamp')}>
          <time dateTime={view.timestamp}>{formatTimestamp(view.timestamp)}</time>
        </Detail>
        <Detail label={t('screen.share.page.url')}>{view.pageUrl ?? '—'}</Detail>
      </Box>
    </Box>
  );
}
