import { useRef } from 'react';
import { Alert, Box } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ScreenShareAction } from '@pagewright/shared';
import { stepScreenUrl } from '../api/get-screen-share';
import { useSharedLivePage } from '../hooks/use-shared-live-page';
import { StableImage } from './stable-image';

interface LivePageProps {
  token: string;
  /** The most recent step that kept a screenshot: shown while there is no live frame. */
  latestStep: ScreenShareAction | undefined;
}

/**
 * The live page of a running share: its frames, read-only, once the first one has arrived;
 * until then, and whenever the session has no live page, the latest step's picture (saying so
 * when the API answered that there is no live page).
 */
export function LivePage({ token, latestStep }: LivePageProps) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement | null>(null);
  const state = useSharedLivePage(token, canvas);
  const isLive = state === 'live';
  const notAvailable = <Alert severity="info">{t('navigator.screenshot.error')}</Alert>;

  return (
    <>
      {state === 'none' && (
        <Alert severity="info" sx={{ mb: 1 }}>
          {t(latestStep ? 'screen.share.live.none.step' : 'screen.share.live.none')}
        </Alert>
      )}
      {/* Always mounted: frames are painted into it before it is shown. */}
      <Box
        sx={{
          display: isLive ? 'block' : 'none',
          lineHeight: 0,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          overflow: 'hidden',
        }}
      >
        <canvas
          ref={canvas}
          role="img"
          aria-label={t('screen.share.live.page')}
          data-testid="live-page-picture"
          data-state={state}
          style={{ width: '100%', height: 'auto' }}
        />
      </Box>
      {!isLive &&
        (latestStep ? (
          <StableImage
            src={stepScreenUrl(token, latestStep.sequence, latestStep.timestamp)}
            alt={t('screen.share.live.step')}
            fallback={notAvailable}
          />
        ) : (
          notAvailable
        ))}
    </>
  );
}
