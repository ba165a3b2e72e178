import {
  ANNOTATION_BOX_DISCARD_THRESHOLD,
  ANNOTATION_CLASS_COLOURS,
  ANNOTATION_HISTORY_DEPTH,
  ANNOTATION_ZOOM_MAX,
  ANNOTATION_ZOOM_MIN,
} from '@pagewright/shared';
import type { AnnotationClass, BoxRegion } from './types';

/** The editor's tools (the template modal offers select and create-box only). */
export type Tool = 'select' | 'pan' | 'zoom' | 'create-box';

/** What an undoable change did; the history panel names it ('annotation.change.*' labels). */
export type ChangeKind = 'create' | 'move' | 'resize' | 'delete' | 'assign' | 'edit';

/** One undoable change: what it did, when, and the boxes as they were before it. */
export interface HistoryEntry {
  kind: ChangeKind;
  /** The class an 'assign' change gave the box. */
  cls?: string;
  time: number;
  before: BoxRegion[];
  /**
   * Changes with the same key in a row are one change (typing an anchor label is one undo step,
   * not one per keystroke).
   */
  key?: string;
}

export interface EditorState {
  regions: BoxRegion[];
  selectedId: string | null;
  tool: Tool;
  zoom: number;
  history: HistoryEntry[];
}

/** Twelve colours the classes cycle through (spec §9). */
export const CLASS_COLOURS = [
  '#f44336',
  '#2196f3',
  '#4caf50',
  '#ff9800',
  '#9c27b0',
  '#00bcd4',
  '#e91e63',
  '#3f51b5',
  '#8bc34a',
  '#ff5722',
  '#673ab7',
  '#009688',
].slice(0, ANNOTATION_CLASS_COLOURS);

export function colourOf(classes: readonly AnnotationClass[], label: string | null): string {
  const index = label === null ? -1 : classes.findIndex((candidate) => candidate.label === label);
  return index < 0 ? '#757575' : (CLASS_COLOURS[index % CLASS_COLOURS.length] ?? '#757575');
}

export const clampZoom = (zoom: number) => Math.min(ANNOTATION_ZOOM_MAX, Math.max(ANNOTATION_ZOOM_MIN, zoom));
const clamp01 = (value: number) => Math.min(1, Math.max(0, value));

export function initialEditorState(regions: BoxRegion[], tool: Tool = 'select'): EditorState {
  return { regions, selectedId: null, tool, zoom: 1, history: [] };
}

/** A box between two corners (fractions), kept inside the page. */
export function boxBetween(a: { x: number; y: number }, b: { x: number; y: number }) {
  const x = clamp01(Math.min(a.x, b.x));
  const y = clamp01(Math.min(a.y, b.y));
  return { x, y, w: clamp01(Math.max(a.x, b.x)) - x, h: clamp01(Math.max(a.y, b.y)) - y };
}

/** A new box smaller than 0.002 of the page in either direction is a slip of the mouse (spec §5). */
export const isTooSmall = (box: { w: number; h: number }) =>
  box.w < ANNOTATION_BOX_DISCARD_THRESHOLD || box.h < ANNOTATION_BOX_DISCARD_THRESHOLD;

export type Corner = 'nw' | 'ne' | 'sw' | 'se';

export type EditorAction =
  | { type: 'tool'; tool: Tool }
  | { type: 'select'; id: string | null }
  | { type: 'zoom'; zoom: number }
  /** Zoom by a factor of the current level (Ctrl+wheel, where the level may change between turns). */
  | { type: 'zoom-by'; factor: number }
  | {
      type: 'create';
      id: string;
      box: { x: number; y: number; w: number; h: number };
      cls: AnnotationClass | null;
    }
  | { type: 'move'; id: string; dx: number; dy: number }
  | { type: 'resize'; id: string; corner: Corner; to: { x: number; y: number } }
  | { type: 'delete'; id: string }
  | { type: 'assign'; id: string; cls: AnnotationClass; colour: string }
  | { type: 'edit'; id: string; changes: Partial<Pick<BoxRegion, 'type' | 'anchorText' | 'cls'>> }
  | { type: 'undo' };

/** Records the boxes as they were before a change; only the last ten changes are kept. */
function withHistory(
  state: EditorState,
  change: Pick<HistoryEntry, 'kind' | 'cls'>,
  regions: BoxRegion[],
  extra: Partial<EditorState> = {},
  key?: string,
): EditorState {
  if (key !== undefined && state.history.at(-1)?.key === key) return { ...state, ...extra, regions };
  const history = [...state.history, { ...change, time: Date.now(), before: state.regions, key }].slice(
    -ANNOTATION_HISTORY_DEPTH,
  );
  return { ...state, ...extra, regions, history };
}

const updateRegion = (regions: BoxRegion[], id: string, change: (region: BoxRegion) => BoxRegion) =>
  regions.map((region) => (region.id === id ? change(region) : region));

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case 'tool':
      return { ...state, tool: action.tool };
    case 'select':
      return { ...state, selectedId: action.id };
    case 'zoom':
      return { ...state, zoom: clampZoom(action.zoom) };
    case 'zoom-by':
      return { ...state, zoom: clampZoom(state.zoom * action.factor) };
    case 'create': {
      if (isTooSmall(action.box)) return state;
      const region: BoxRegion = {
        id: action.id,
        ...action.box,
        cls: action.cls?.label ?? null,
        type: action.cls?.type ?? 'TEXT',
        anchorText: null,
        color: action.cls ? '' : '#757575',
        visible: true,
      };
      // The new box is not selected: the next class chosen is for the next box to draw, as in
      // annotation tools (drawing boxes in turn relabelled the box just drawn, issue 23).
      return withHistory(state, { kind: 'create' }, [...state.regions, region], { selectedId: null });
    }
    case 'move': {
      if (action.dx === 0 && action.dy === 0) return state;
      return withHistory(
        state,
        { kind: 'move' },
        updateRegion(state.regions, action.id, (region) => ({
          ...region,
          x: Math.min(Math.max(region.x + action.dx, 0), 1 - region.w),
          y: Math.min(Math.max(region.y + action.dy, 0), 1 - region.h),
        })),
      );
    }
    case 'resize': {
      const region = state.regions.find((candidate) => candidate.id === action.id);
      if (!region) return state;
      const fixed = {
        x: action.corner === 'nw' || action.corner === 'sw' ? region.x + region.w : region.x,
        y: action.corner === 'nw' || action.corner === 'ne' ? region.y + region.h : region.y,
      };
      const box = boxBetween(fixed, action.to);
      if (isTooSmall(box)) return state;
      return withHistory(
        state,
        { kind: 'resize' },
        updateRegion(state.regions, action.id, (current) => ({ ...current, ...box })),
      );
    }
    case 'delete':
      if (!state.regions.some((region) => region.id === action.id)) return state;
      return withHistory(
        state,
        { kind: 'delete' },
        state.regions.filter((region) => region.id !== action.id),
        { selectedId: state.selectedId === action.id ? null : state.selectedId },
      );
    case 'assign':
      return withHistory(
        state,
        { kind: 'assign', cls: action.cls.label },
        updateRegion(state.regions, action.id, (region) => ({
          ...region,
          cls: action.cls.label,
          type: action.cls.type,
          color: action.colour,
        })),
      );
    case 'edit':
      return withHistory(
        state,
        { kind: 'edit' },
        updateRegion(state.regions, action.id, (region) => ({ ...region, ...action.changes })),
        {},
        `edit:${action.id}:${Object.keys(action.changes).sort().join(',')}`,
      );
    case 'undo': {
      const last = state.history.at(-1);
      if (!last) return state;
      const selectedId = last.before.some((region) => region.id === state.selectedId)
        ? state.selectedId
        : null;
      return { ...state, regions: last.before, history: state.history.slice(0, -1), selectedId };
    }
  }
}
