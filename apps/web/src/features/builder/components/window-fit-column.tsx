import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Box } from '@mui/material';

/** Least height kept when the window is very short (the panel then scrolls inside). */
const MIN_HEIGHT_PX = 240;
const BOTTOM_GAP_PX = 8;

/**
 * A column that ends at the window's bottom edge and scrolls inside itself: a panel beside the
 * page view (Get table) stays whole on screen however long it grows, so the builder itself never
 * needs scrolling while the operator picks on the page.
 */
export function WindowFitColumn({ children }: { children: ReactNode }) {
  const column = useRef<HTMLDivElement | null>(null);
  const [maxHeight, setMaxHeight] = useState<number | undefined>(undefined);

  useLayoutEffect(() => {
    const measure = () => {
      const top = column.current?.getBoundingClientRect().top;
      if (top === undefined) return;
      setMaxHeight(
        Math.max(MIN_HEIGHT_PX, Math.floor(window.innerHeight - Math.max(top, 0) - BOTTOM_GAP_PX)),
      );
    };
    measure();
    window.addEventListener('resize', measure);
    window.addEventListener('scroll', measure, { passive: true });
    return () => {
      window.removeEventListener('resize', measure);
      window.removeEventListener('scroll', measure);
    };
  }, []);

  return (
    <Box ref={column} data-testid="window-fit-column" sx={{ maxHeight, overflowY: 'auto', minWidth: 0 }}>
      {children}
    </Box>
  );
}
