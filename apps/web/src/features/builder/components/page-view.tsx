import {
  memo,
  useCallback,
  useEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { Box, CircularProgress, Paper, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ExtractorType, PageElementArea, Point } from '@pagewright/shared';
import { useLiveFrames, type FrameSize } from '../hooks/use-live-frames';

/** What a click on the page does: picks an element, records a mouse click, or nothing (busy). */
export type PageViewMode = 'pick' | 'record' | 'disabled';

export interface PageViewProps {
  extractorType: ExtractorType;
  /** checkImageRefreshInterval (ms): poll when no frame was pushed for this long. */
  pollAfterMs: number;
  areas: readonly PageElementArea[];
  mode: PageViewMode;
  /** An area to outline whatever the pointer does (the table panel's current selection). */
  highlightedAreaId: number | null;
  /** A click at a point of the page, in page CSS pixels, with the smallest area under it. */
  onPagePoint: (point: Point, area: PageElementArea | null) => void;
  /**
   * Typing is recorded (nothing is being picked). Keys are kept even while a click still runs on the
   * page, so an operator can click a field and type at once.
   */
  canType: boolean;
  /** Text typed while the page view has the focus, sent with Enter. */
  onText: (text: string) => void;
  onEscape: () => void;
  /** The page changed by itself (frames stopped after a burst): its areas are stale. */
  onSettled: () => void;
  /**
   * The wheel turned over the page (record and pick modes: the builder records a scroll step or
   * only moves the page): page CSS pixels down (negative: up), where the pointer was; several
   * turns in a row come as one.
   */
  onWheel?: (deltaY: number, point: Point) => void;
  /** A banner over the page (picking, typing, running). */
  banner?: ReactNode;
}

/** The smallest area containing the point: the element the user means, not its containers. */
export function areaAt(areas: readonly PageElementArea[], point: Point): PageElementArea | null {
  let best: PageElementArea | null = null;
  for (const area of areas) {
    if (
      point.x >= area.x &&
      point.y >= area.y &&
      point.x <= area.x + area.width &&
      point.y <= area.y + area.height &&
      (!best || area.width * area.height < best.width * best.height)
    )
      best = area;
  }
  return best;
}

/** A point of the displayed picture in page CSS pixels (the picture is scaled to fit the column). */
export function toPagePoint(
  client: { clientX: number; clientY: number },
  box: { left: number; top: number; width: number; height: number },
  frame: FrameSize,
): Point {
  const x = ((client.clientX - box.left) / box.width) * frame.width;
  const y = ((client.clientY - box.top) / box.height) * frame.height;
  return {
    x: Math.round(Math.min(Math.max(x, 0), frame.width - 1)),
    y: Math.round(Math.min(Math.max(y, 0), frame.height - 1)),
  };
}

function Outline({ area, frame, color }: { area: PageElementArea; frame: FrameSize; color: string }) {
  return (
    <Box
      aria-hidden
      sx={{
        position: 'absolute',
        pointerEvents: 'none',
        left: `${(area.x / frame.width) * 100}%`,
        top: `${(area.y / frame.height) * 100}%`,
        width: `${(area.width / frame.width) * 100}%`,
        height: `${(area.height / frame.height) * 100}%`,
        outline: `2px solid ${color}`,
        bgcolor: 'rgba(239, 108, 0, 0.08)',
      }}
    />
  );
}

const PRINTABLE = /^.$/u;
/** Wheel turns closer together than this are one scroll step. */
const WHEEL_GATHER_MS = 300;

/**
 * The live page (spec §2 "page view"): frames painted into one canvas, the element under the
 * pointer outlined with its tag and text, clicks turned into page CSS pixels. Only this component
 * re-renders on frames and hovering; the action cards do not.
 */
export const PageView = memo(function PageView(props: PageViewProps) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement | null>(null);
  const container = useRef<HTMLDivElement | null>(null);
  const { frameSize, hasPollFailed } = useLiveFrames({
    extractorType: props.extractorType,
    canvas,
    counter: container,
    pollAfterMs: props.pollAfterMs,
    onSettled: props.onSettled,
  });
  const [hovered, setHovered] = useState<PageElementArea | null>(null);
  const [typed, setTyped] = useState('');
  const { areas, mode, canType, onPagePoint, onText, onEscape, onWheel } = props;
  const isInteractive = mode !== 'disabled' && frameSize !== null;
  const surface = useRef<HTMLDivElement | null>(null);

  // The wheel scrolls the live page, not the builder: a native listener, since React's is passive
  // and could not keep the builder from scrolling. Turns within WHEEL_GATHER_MS make one step.
  // The latest handler, read when the gathered turn is sent: a parent re-rendering meanwhile (the
  // areas read again, a highlight) must not drop a turn by re-subscribing.
  const wheelHandler = useRef(onWheel);
  useEffect(() => {
    wheelHandler.current = onWheel;
  }, [onWheel]);
  const isWheelOn = onWheel !== undefined && mode !== 'disabled';
  useEffect(() => {
    const element = surface.current;
    if (!element || !isWheelOn || !frameSize) return undefined;
    let gathered = 0;
    let at: Point | null = null;
    let timer: number | undefined;
    const listener = (event: WheelEvent) => {
      const picture = canvas.current;
      if (!picture) return;
      event.preventDefault();
      const box = picture.getBoundingClientRect();
      const linePixels = event.deltaMode === 1 ? 40 : event.deltaMode === 2 ? box.height : 1;
      // What the operator saw move, in the page's own pixels (the picture is scaled).
      gathered += ((event.deltaY * linePixels) / box.height) * frameSize.height;
      at = toPagePoint(event, box, frameSize);
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        const deltaY = Math.round(gathered);
        gathered = 0;
        if (deltaY !== 0 && at) wheelHandler.current?.(deltaY, at);
      }, WHEEL_GATHER_MS);
    };
    element.addEventListener('wheel', listener, { passive: false });
    return () => {
      element.removeEventListener('wheel', listener);
      window.clearTimeout(timer);
    };
  }, [frameSize, isWheelOn]);

  const pointOf = useCallback(
    (event: MouseEvent<HTMLElement>): Point | null => {
      const picture = canvas.current;
      if (!picture || !frameSize) return null;
      return toPagePoint(event, picture.getBoundingClientRect(), frameSize);
    },
    [frameSize],
  );

  const onMouseMove = (event: MouseEvent<HTMLElement>) => {
    if (!isInteractive) return;
    const point = pointOf(event);
    const area = point ? areaAt(areas, point) : null;
    if (area?.id !== hovered?.id) setHovered(area);
  };

  const onClick = (event: MouseEvent<HTMLElement>) => {
    container.current?.focus({ preventScroll: true });
    if (!isInteractive) return;
    const point = pointOf(event);
    if (point) onPagePoint(point, areaAt(areas, point));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      if (typed) setTyped('');
      else onEscape();
      return;
    }
    if (!canType || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === 'Enter' && typed) {
      event.preventDefault();
      onText(typed);
      setTyped('');
    } else if (event.key === 'Backspace' && typed) {
      event.preventDefault();
      setTyped(typed.slice(0, -1));
    } else if (PRINTABLE.test(event.key)) {
      event.preventDefault();
      setTyped(typed + event.key);
    }
  };

  const highlighted =
    props.highlightedAreaId === null
      ? null
      : (areas.find((area) => area.id === props.highlightedAreaId) ?? null);
  const describe = (area: PageElementArea) =>
    area.textContent ? `<${area.tagName}> ${area.textContent.slice(0, 80)}` : `<${area.tagName}>`;

  return (
    <Box
      ref={container}
      data-testid="page-view"
      data-frame-width={frameSize?.width ?? 0}
      data-frame-height={frameSize?.height ?? 0}
      data-mode={mode}
      role="application"
      aria-label={t('builder.page.view')}
      tabIndex={0}
      onKeyDown={onKeyDown}
      sx={{
        position: 'relative',
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        overflow: 'hidden',
        bgcolor: 'grey.100',
        '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main' },
      }}
    >
      {props.banner}
      <Box
        ref={surface}
        sx={{ position: 'relative', lineHeight: 0, cursor: isInteractive ? 'crosshair' : 'default' }}
        onMouseMove={onMouseMove}
        onMouseLeave={() => setHovered(null)}
        onClick={onClick}
      >
        <canvas
          ref={canvas}
          data-testid="page-picture"
          style={{ width: '100%', height: 'auto', display: frameSize ? 'block' : 'none' }}
        />
        {frameSize && hovered && isInteractive && (
          <>
            <Outline area={hovered} frame={frameSize} color="#ef6c00" />
            <Paper
              role="tooltip"
              elevation={3}
              sx={{
                position: 'absolute',
                pointerEvents: 'none',
                left: `${Math.min((hovered.x / frameSize.width) * 100, 70)}%`,
                top: `${(hovered.y / frameSize.height) * 100}%`,
                transform: 'translateY(-100%)',
                px: 1,
                py: 0.25,
                maxWidth: '30%',
                lineHeight: 1.4,
              }}
            >
              <Typography variant="caption" noWrap component="div">
                {describe(hovered)}
              </Typography>
            </Paper>
          </>
        )}
        {frameSize && highlighted && <Outline area={highlighted} frame={frameSize} color="#1565c0" />}
      </Box>
      {!frameSize && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, p: 4, justifyContent: 'center' }}>
          <CircularProgress size={20} aria-hidden />
          <Typography color="text.secondary">
            {hasPollFailed ? t('error.while.loading.browser.screenshot') : t('builder.page.waiting')}
          </Typography>
        </Box>
      )}
      {typed && (
        <Paper
          role="status"
          elevation={4}
          sx={{ position: 'absolute', bottom: 8, left: 8, right: 8, px: 1.5, py: 1, display: 'flex', gap: 2 }}
        >
          <Typography sx={{ flex: 1, fontFamily: 'monospace' }} noWrap>
            {t('builder.typing', { text: typed })}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {t('builder.typing.hint')}
          </Typography>
        </Paper>
      )}
    </Box>
  );
});
