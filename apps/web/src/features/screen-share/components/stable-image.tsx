import { useState, type ReactNode } from 'react';
import { Box } from '@mui/material';

interface StableImageProps {
  /** The picture to show; a new value is loaded behind the one on screen before it replaces it. */
  src: string;
  alt: string;
  /** Shown while no picture has loaded yet, or when the first one cannot be loaded. */
  fallback: ReactNode;
}

/**
 * A picture refreshed without flicker: the new one loads in an invisible <img> stacked on the shown
 * one and takes its place only once loaded. Both are keyed by their URL, so the loaded element is
 * kept (never fetched twice) and a failed refresh leaves the last good picture on screen.
 */
export function StableImage({ src, alt, fallback }: StableImageProps) {
  const [shownSrc, setShownSrc] = useState<string | null>(null);
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const isPending = src !== shownSrc && src !== failedSrc;
  const sources = [shownSrc, isPending ? src : null].filter((value): value is string => value !== null);

  return (
    <Box
      sx={{
        position: 'relative',
        lineHeight: 0,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        overflow: 'hidden',
      }}
    >
      {shownSrc === null && <Box sx={{ lineHeight: 'normal' }}>{fallback}</Box>}
      {sources.map((source) => {
        const isShown = source === shownSrc;
        return (
          <Box
            key={source}
            component="img"
            src={source}
            alt={isShown ? alt : ''}
            aria-hidden={isShown ? undefined : true}
            data-state={isShown ? 'shown' : 'loading'}
            onLoad={() => setShownSrc(source)}
            onError={() => setFailedSrc(source)}
            sx={
              isShown
                ? { display: 'block', width: '100%', height: 'auto' }
                : { position: 'absolute', inset: 0, width: '100%', opacity: 0, pointerEvents: 'none' }
            }
          />
        );
      })}
    </Box>
  );
}
