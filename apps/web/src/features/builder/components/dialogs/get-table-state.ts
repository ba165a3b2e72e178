import type { PageElementArea, TableColumn } from '@pagewright/shared';
import { indexAreas, type AreaIndex } from './table-picking';

/**
 * The Get table picker's stages as a reducer (the annotation editor's editor-state.ts is the
 * pattern): TABLE → ROW → COLUMN, the picks each stage kept, and where Up/Down moved the selection.
 *
 * Picks and kept elements are known by their CSS path, not by their area id: the page's areas are
 * read again whenever the live page moves (the wheel, a clock ticking), and ids are positions in
 * one read. A page pick also carries a serial, so clicking the element a previous stage used (the
 * cell that found the row, then becomes a column) is a new pick, not the old one.
 */

export const TABLE_STAGES = ['TABLE', 'ROW', 'COLUMN'] as const;
export type TableStage = (typeof TABLE_STAGES)[number];

/** The element the operator last clicked on the page view, and which click it was. */
export interface PagePick {
  serial: number;
  selector: string | null;
}
export const NO_PICK: PagePick = { serial: 0, selector: null };

/** A table spread over pages: the button clicked for the next one, and how many pages at most. */
export interface NextPageDraft {
  selector: string;
  /** How the operator reads the button (`button "Next page"`). */
  description: string;
  maxPages: string;
}

/** What went wrong, as a key of the `dialogs.table.*` texts. */
export type TableProblem =
  | 'nothing.selected'
  | 'outside.table'
  | 'outside.row'
  | 'file.error'
  | 'need.column'
  | 'next.page.inside.row';

export interface TablePickState {
  stage: TableStage;
  /** The serial of the page pick current when this stage began: it belongs to the stage before. */
  stageSerial: number;
  /** Up/Down moved the selection away from the pick with this serial. */
  moved: { serial: number; selector: string } | null;
  table: PageElementArea | null;
  row: PageElementArea | null;
  columns: TableColumn[];
  nextPage: NextPageDraft | null;
  problem: TableProblem | null;
}

export const INITIAL_TABLE_PICK: TablePickState = {
  stage: 'TABLE',
  stageSerial: 0,
  moved: null,
  table: null,
  row: null,
  columns: [],
  nextPage: null,
  problem: null,
};

export type TablePickAction =
  | { type: 'move'; serial: number; selector: string }
  | { type: 'choose-table'; area: PageElementArea; serial: number }
  | { type: 'choose-row'; area: PageElementArea; serial: number }
  | { type: 'add-column'; column: TableColumn }
  | { type: 'remove-column'; position: number }
  | { type: 'next-page'; nextPage: NextPageDraft | null }
  | { type: 'problem'; problem: TableProblem | null };

export function tablePickReducer(state: TablePickState, action: TablePickAction): TablePickState {
  switch (action.type) {
    case 'move':
      return { ...state, moved: { serial: action.serial, selector: action.selector }, problem: null };
    case 'choose-table':
      return {
        ...state,
        stage: 'ROW',
        table: action.area,
        stageSerial: action.serial,
        moved: null,
        problem: null,
      };
    case 'choose-row':
      return {
        ...state,
        stage: 'COLUMN',
        row: action.area,
        stageSerial: action.serial,
        moved: null,
        problem: null,
      };
    case 'add-column':
      return { ...state, columns: [...state.columns, action.column], problem: null };
    case 'remove-column':
      return { ...state, columns: state.columns.filter((_, at) => at !== action.position) };
    case 'next-page':
      return { ...state, nextPage: action.nextPage, problem: null };
    case 'problem':
      return { ...state, problem: action.problem };
  }
}

/** The page's areas by id (for the tree) and by CSS path (for picks and kept elements). */
export interface AreaLookup {
  areas: readonly PageElementArea[];
  index: AreaIndex;
  bySelector: ReadonlyMap<string, PageElementArea>;
}

export function lookupAreas(areas: readonly PageElementArea[]): AreaLookup {
  const bySelector = new Map<string, PageElementArea>();
  for (const area of areas) if (!bySelector.has(area.selector)) bySelector.set(area.selector, area);
  return { areas, index: indexAreas(areas), bySelector };
}

/** A kept element as the latest read of the page has it (as it was kept when it is gone). */
export function currentArea(lookup: AreaLookup, kept: PageElementArea): PageElementArea {
  return lookup.bySelector.get(kept.selector) ?? kept;
}

/** What is selected now: where Up/Down moved it, else this stage's latest page pick. */
export function selectedArea(
  state: TablePickState,
  pick: PagePick,
  lookup: AreaLookup,
): PageElementArea | undefined {
  if (state.moved && state.moved.serial === pick.serial) return lookup.bySelector.get(state.moved.selector);
  if (pick.serial > state.stageSerial && pick.selector !== null) return lookup.bySelector.get(pick.selector);
  return undefined;
}
