import {
  useCallback,
  useEffect,
  useReducer,
  useRef,
  useState,
  type PointerEvent as ReactPointerEvent,
} from 'react';
import {
  Box,
  Divider,
  IconButton,
  Stack,
  ToggleButton,
  ToggleButtonGroup,
  Tooltip,
  Typography,
} from '@mui/material';
import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import CropSquare from '@mui/icons-material/CropSquare';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import FitScreen from '@mui/icons-material/FitScreen';
import NearMe from '@mui/icons-material/NearMe';
import PanTool from '@mui/icons-material/PanTool';
import Settings from '@mui/icons-material/Settings';
import Undo from '@mui/icons-material/Undo';
import ZoomIn from '@mui/icons-material/ZoomIn';
import ZoomOut from '@mui/icons-material/ZoomOut';
import { useTranslation } from 'react-i18next';
import { ANNOTATION_MOUSE_THROTTLE_MS } from '@pagewright/shared';
import {
  boxBetween,
  colourOf,
  editorReducer,
  initialEditorState,
  type Corner,
  type Tool,
} from './editor-state';
import { SettingsDialog, DEFAULT_SETTINGS } from './settings-dialog';
import { ClassesPanel, HistoryPanel, RegionsPanel, SelectedBoxPanel } from './side-panels';
import type { AnnotationClass, AnnotationEditorProps, AnnotationSettings } from './types';

type Point = { x: number; y: number };
type Drag =
  | { kind: 'draw'; from: Point; to: Point }
  | { kind: 'move'; id: string; from: Point; to: Point }
  | { kind: 'resize'; id: string; corner: Corner; to: Point }
  | { kind: 'pan'; from: { x: number; y: number }; scroll: { left: number; top: number } };

const ZOOM_STEP = 1.25;
const PAN_STEP = 60;
let nextId = 0;
const newId = () => `new-${Date.now().toString(36)}-${(nextId += 1)}`;

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/**
 * The annotation editor (issue 15): an SVG over a page image. Boxes are kept in fractions of the
 * page; zoom 5%–200%; select, move and resize, create (a box under 0.002 of the page is dropped),
 * pan; classes (field name and type), the page's boxes, the last ten changes with undo; the spec's
 * hotkeys and settings.
 */
export function AnnotationEditor({
  imageSrc,
  imageWidth,
  imageHeight,
  initialRegions,
  classes,
  onClassesChange,
  onRegionsChange,
  enabledTools = ['select', 'pan', 'zoom', 'create-box'],
  onPreviousPage,
  onNextPage,
  pageLabel,
}: AnnotationEditorProps) {
  const { t } = useTranslation();
  const [state, dispatch] = useReducer(editorReducer, initialRegions, (regions) =>
    initialEditorState(regions),
  );
  const [drag, setDrag] = useState<Drag | null>(null);
  const [pointer, setPointer] = useState<Point | null>(null);
  const [settings, setSettings] = useState<AnnotationSettings>(DEFAULT_SETTINGS);
  const [isSettingsOpen, setIsSettingsOpen] = useState(false);
  const [currentClass, setCurrentClass] = useState<string | null>(classes[0]?.label ?? null);
  const viewport = useRef<HTMLDivElement>(null);
  const lastMove = useRef(0);
  const isFirstRender = useRef(true);

  // The modal saves what the editor holds: tell it after every change (not on the first render).
  useEffect(() => {
    if (isFirstRender.current) {
      isFirstRender.current = false;
      return;
    }
    onRegionsChange(state.regions);
  }, [state.regions, onRegionsChange]);

  const classOf = useCallback(
    (label: string | null) => classes.find((cls) => cls.label === label) ?? null,
    [classes],
  );
  const selected = state.regions.find((region) => region.id === state.selectedId) ?? null;
  const tools = enabledTools.filter((tool) => tool !== 'zoom');

  /** A pointer position as page fractions (the SVG the event's element is in gives the scale). */
  const toPage = (event: { clientX: number; clientY: number; currentTarget: EventTarget }): Point => {
    const target = event.currentTarget as SVGElement;
    const canvas = target instanceof SVGSVGElement ? target : target.ownerSVGElement;
    const rect = canvas?.getBoundingClientRect();
    if (!rect || rect.width === 0 || rect.height === 0) return { x: 0, y: 0 };
    return { x: (event.clientX - rect.left) / rect.width, y: (event.clientY - rect.top) / rect.height };
  };

  const setTool = (tool: Tool) => {
    if (!enabledTools.includes(tool)) return;
    setDrag(null);
    dispatch({ type: 'tool', tool });
  };
  const zoomBy = (factor: number) => dispatch({ type: 'zoom', zoom: state.zoom * factor });
  /** The whole page in view: as wide or as tall as the view allows, whichever is smaller. */
  const fit = () => {
    const width = viewport.current?.clientWidth ?? 0;
    const height = viewport.current?.clientHeight ?? 0;
    if (width <= 0 || height <= 0) return;
    dispatch({ type: 'zoom', zoom: Math.min(width / imageWidth, height / imageHeight) });
  };

  // Ctrl+wheel zooms the picture only: a native listener, since React's wheel listener is passive
  // and could not keep the browser from zooming the whole page as well.
  useEffect(() => {
    const element = viewport.current;
    if (!element) return undefined;
    const onWheel = (event: WheelEvent) => {
      if (!event.ctrlKey) return;
      event.preventDefault();
      dispatch({ type: 'zoom-by', factor: event.deltaY < 0 ? ZOOM_STEP : 1 / ZOOM_STEP });
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, []);
  const assign = (cls: AnnotationClass) => {
    setCurrentClass(cls.label);
    if (state.selectedId) {
      dispatch({ type: 'assign', id: state.selectedId, cls, colour: colourOf(classes, cls.label) });
    }
  };

  // Hotkeys (spec §2): Esc select, z zoom, b box, m pan, d delete, Ctrl+Z undo, arrows pages, 1-9 classes.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isTyping(event.target)) return;
      const key = event.key;
      if ((event.ctrlKey || event.metaKey) && key.toLowerCase() === 'z') {
        event.preventDefault();
        dispatch({ type: 'undo' });
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (key === 'Escape') {
        setDrag(null);
        setTool('select');
      } else if (key === 'z') zoomBy(ZOOM_STEP);
      else if (key === 'b') setTool('create-box');
      else if (key === 'm') setTool('pan');
      else if (key === 'd' && state.selectedId) dispatch({ type: 'delete', id: state.selectedId });
      else if (key === 'ArrowLeft') onPreviousPage?.();
      else if (key === 'ArrowRight') onNextPage?.();
      else if (/^[1-9]$/u.test(key)) {
        const cls = classes[Number(key) - 1];
        if (cls) assign(cls);
      } else if (settings.wasdMode && ['w', 'a', 's'].includes(key) && viewport.current) {
        viewport.current.scrollBy({
          left: key === 'a' ? -PAN_STEP : 0,
          top: key === 'w' ? -PAN_STEP : key === 's' ? PAN_STEP : 0,
        });
      } else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const onPointerDown = (event: ReactPointerEvent<SVGSVGElement>) => {
    const at = toPage(event);
    (event.target as Element).setPointerCapture?.(event.pointerId);
    if (state.tool === 'create-box') setDrag({ kind: 'draw', from: at, to: at });
    else if (state.tool === 'pan' && viewport.current) {
      setDrag({
        kind: 'pan',
        from: { x: event.clientX, y: event.clientY },
        scroll: { left: viewport.current.scrollLeft, top: viewport.current.scrollTop },
      });
    } else if (state.tool === 'select') dispatch({ type: 'select', id: null });
  };

  const onPointerMove = (event: ReactPointerEvent<SVGSVGElement>) => {
    // Mouse moves are handled at most every 16 ms (spec §9).
    if (event.timeStamp - lastMove.current < ANNOTATION_MOUSE_THROTTLE_MS) return;
    lastMove.current = event.timeStamp;
    const at = toPage(event);
    if (settings.showCrosshairs) setPointer(at);
    if (!drag) return;
    if (drag.kind === 'pan' && viewport.current) {
      viewport.current.scrollLeft = drag.scroll.left - (event.clientX - drag.from.x);
      viewport.current.scrollTop = drag.scroll.top - (event.clientY - drag.from.y);
    } else if (drag.kind !== 'pan') setDrag({ ...drag, to: at });
  };

  const onPointerUp = (event: ReactPointerEvent<SVGSVGElement>) => {
    if (!drag) return;
    const at = toPage(event);
    if (drag.kind === 'draw') {
      dispatch({ type: 'create', id: newId(), box: boxBetween(drag.from, at), cls: classOf(currentClass) });
    } else if (drag.kind === 'move') {
      dispatch({ type: 'move', id: drag.id, dx: at.x - drag.from.x, dy: at.y - drag.from.y });
    } else if (drag.kind === 'resize') {
      dispatch({ type: 'resize', id: drag.id, corner: drag.corner, to: at });
    }
    setDrag(null);
  };

  const startMove = (event: ReactPointerEvent, id: string) => {
    if (state.tool !== 'select') return;
    event.stopPropagation();
    dispatch({ type: 'select', id });
    const at = toPage(event);
    setDrag({ kind: 'move', id, from: at, to: at });
  };
  const startResize = (event: ReactPointerEvent, id: string, corner: Corner) => {
    event.stopPropagation();
    setDrag({ kind: 'resize', id, corner, to: toPage(event) });
  };

  const W = imageWidth;
  const H = imageHeight;
  const handle = 8 / state.zoom;
  const drawing = drag?.kind === 'draw' ? boxBetween(drag.from, drag.to) : null;

  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ height: '100%', minHeight: 0 }}>
      <Stack sx={{ flex: 1, minWidth: 0, minHeight: 0 }}>
        <Stack
          direction="row"
          spacing={1}
          sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1 }}
          role="toolbar"
          aria-label={t('annotation.tools')}
        >
          <ToggleButtonGroup
            size="small"
            exclusive
            value={state.tool}
            onChange={(_, tool: Tool | null) => tool && setTool(tool)}
          >
            {tools.map((tool) => (
              <ToggleButton key={tool} value={tool} aria-label={t(`annotation.tool.${tool}`)}>
                <Tooltip title={t(`annotation.tool.${tool}`)}>
                  {tool === 'select' ? (
                    <NearMe fontSize="small" />
                  ) : tool === 'pan' ? (
                    <PanTool fontSize="small" />
                  ) : (
                    <CropSquare fontSize="small" />
                  )}
                </Tooltip>
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          <IconButton
            size="small"
            aria-label={t('annotation.zoom.out')}
            onClick={() => zoomBy(1 / ZOOM_STEP)}
          >
            <ZoomOut />
          </IconButton>
          <Typography variant="body2" data-testid="zoom-level" sx={{ minWidth: 44, textAlign: 'center' }}>
            {`${Math.round(state.zoom * 100)}%`}
          </Typography>
          <IconButton size="small" aria-label={t('annotation.zoom.in')} onClick={() => zoomBy(ZOOM_STEP)}>
            <ZoomIn />
          </IconButton>
          <IconButton size="small" aria-label={t('annotation.fit')} onClick={fit}>
            <FitScreen />
          </IconButton>
          <IconButton
            size="small"
            aria-label={t('annotation.undo')}
            onClick={() => dispatch({ type: 'undo' })}
            disabled={state.history.length === 0}
          >
            <Undo />
          </IconButton>
          <IconButton
            size="small"
            aria-label={t('annotation.delete.box')}
            onClick={() => state.selectedId && dispatch({ type: 'delete', id: state.selectedId })}
            disabled={!state.selectedId}
          >
            <DeleteOutlined />
          </IconButton>
          <IconButton
            size="small"
            aria-label={t('annotation.settings')}
            onClick={() => setIsSettingsOpen(true)}
          >
            <Settings />
          </IconButton>
          <Box sx={{ flex: 1 }} />
          {onPreviousPage && (
            <IconButton size="small" aria-label={t('annotation.page.previous')} onClick={onPreviousPage}>
              <ChevronLeft />
            </IconButton>
          )}
          {pageLabel && <Typography variant="body2">{pageLabel}</Typography>}
          {onNextPage && (
            <IconButton size="small" aria-label={t('annotation.page.next')} onClick={onNextPage}>
              <ChevronRight />
            </IconButton>
          )}
        </Stack>
        <Box
          ref={viewport}
          sx={{
            flex: 1,
            overflow: 'auto',
            bgcolor: 'grey.200',
            border: 1,
            borderColor: 'divider',
            minHeight: 300,
          }}
        >
          <svg
            data-testid="annotation-canvas"
            viewBox={`0 0 ${W} ${H}`}
            width={W * state.zoom}
            height={H * state.zoom}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            style={{
              display: 'block',
              cursor: state.tool === 'create-box' ? 'crosshair' : state.tool === 'pan' ? 'grab' : 'default',
              touchAction: 'none',
            }}
          >
            <image href={imageSrc} x={0} y={0} width={W} height={H} />
            {state.regions.map((shown) => {
              // A box is drawn in its class's colour (the classes panel's order).
              const region = { ...shown, color: colourOf(classes, shown.cls) };
              const isSelected = region.id === state.selectedId;
              const moved =
                drag?.kind === 'move' && drag.id === region.id
                  ? { x: drag.to.x - drag.from.x, y: drag.to.y - drag.from.y }
                  : { x: 0, y: 0 };
              const x = (region.x + moved.x) * W;
              const y = (region.y + moved.y) * H;
              return (
                <g
                  key={region.id}
                  data-testid="annotation-box"
                  data-label={region.cls ?? ''}
                  data-selected={isSelected}
                >
                  <rect
                    x={x}
                    y={y}
                    width={region.w * W}
                    height={region.h * H}
                    fill={isSelected && settings.showHighlightBox ? `${region.color}33` : 'transparent'}
                    stroke={region.color || '#757575'}
                    strokeWidth={(isSelected ? 3 : 2) / state.zoom}
                    onPointerDown={(event) => startMove(event, region.id)}
                    style={{ cursor: state.tool === 'select' ? 'move' : undefined }}
                  />
                  {region.cls && (
                    <text x={x} y={y - 4 / state.zoom} fontSize={12 / state.zoom} fill={region.color}>
                      {region.cls}
                    </text>
                  )}
                  {isSelected &&
                    state.tool === 'select' &&
                    (['nw', 'ne', 'sw', 'se'] as const).map((corner) => (
                      <rect
                        key={corner}
                        aria-label={t('annotation.resize', { corner })}
                        x={(corner.endsWith('w') ? region.x : region.x + region.w) * W - handle / 2}
                        y={(corner.startsWith('n') ? region.y : region.y + region.h) * H - handle / 2}
                        width={handle}
                        height={handle}
                        fill="#fff"
                        stroke={region.color}
                        strokeWidth={1 / state.zoom}
                        onPointerDown={(event) => startResize(event, region.id, corner)}
                        style={{ cursor: 'nwse-resize' }}
                      />
                    ))}
                </g>
              );
            })}
            {drawing && (
              <rect
                data-testid="annotation-drawing"
                x={drawing.x * W}
                y={drawing.y * H}
                width={drawing.w * W}
                height={drawing.h * H}
                fill="transparent"
                stroke="#1976d2"
                strokeDasharray={`${4 / state.zoom}`}
                strokeWidth={2 / state.zoom}
              />
            )}
            {settings.showCrosshairs && pointer && (
              <g stroke="#1976d2" strokeWidth={1 / state.zoom} opacity={0.6} pointerEvents="none">
                <line x1={0} x2={W} y1={pointer.y * H} y2={pointer.y * H} />
                <line x1={pointer.x * W} x2={pointer.x * W} y1={0} y2={H} />
              </g>
            )}
          </svg>
        </Box>
      </Stack>
      <Stack
        spacing={1}
        sx={{ width: { md: 320 }, flexShrink: 0, overflowY: 'auto' }}
        divider={<Divider flexItem />}
      >
        <ClassesPanel
          classes={classes}
          current={currentClass}
          onPick={assign}
          onAdd={(cls) => {
            onClassesChange([...classes, cls]);
            setCurrentClass(cls.label);
          }}
        />
        {selected && (
          <SelectedBoxPanel
            region={selected}
            classes={classes}
            onClass={assign}
            onChange={(changes) => dispatch({ type: 'edit', id: selected.id, changes })}
          />
        )}
        <RegionsPanel
          regions={state.regions.map((region) => ({ ...region, color: colourOf(classes, region.cls) }))}
          selectedId={state.selectedId}
          onSelect={(id) => dispatch({ type: 'select', id })}
          onDelete={(id) => dispatch({ type: 'delete', id })}
        />
        <HistoryPanel history={state.history} onUndo={() => dispatch({ type: 'undo' })} />
      </Stack>
      {isSettingsOpen && (
        <SettingsDialog settings={settings} onChange={setSettings} onClose={() => setIsSettingsOpen(false)} />
      )}
    </Stack>
  );
}
