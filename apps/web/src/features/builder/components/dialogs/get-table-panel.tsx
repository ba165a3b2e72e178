import { useEffect, useMemo, useReducer } from 'react';
import { Alert, Box, Button, Paper, Step, StepLabel, Stepper, Typography } from '@mui/material';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import { useTranslation } from 'react-i18next';
import {
  isFileColumnArea,
  type ExtractorType,
  type PageElementArea,
  type TableColumn,
  type TableDefinition,
} from '@pagewright/shared';
import {
  INITIAL_TABLE_PICK,
  TABLE_STAGES,
  currentArea,
  lookupAreas,
  selectedArea,
  tablePickReducer,
  type PagePick,
} from './get-table-state';
import { TableColumnsSection } from './table-columns-section';
import { TableNextPageSection, maxPagesError } from './table-next-page-section';
import {
  cellOf,
  columnSelectorOf,
  describeArea,
  firstChildOf,
  isInside,
  rowSelectorOf,
  rowsOf,
  textOf,
} from './table-picking';

/** Pages read when a next-page button is set, until the operator says otherwise. */
const DEFAULT_MAX_PAGES = '10';

export interface GetTablePanelProps {
  tableName: string;
  /** The page's normalized areas (with their parentId tree). */
  areas: readonly PageElementArea[];
  /** The element the user last clicked on the page view (by CSS path), and which click it was. */
  pick: PagePick;
  /** Outline this area on the page view (null: none). */
  onHighlight: (areaId: string | null) => void;
  onCancel: () => void;
  /** The definition for AddActionInput.options.table (maxPages 1 unless a next-page button is set). */
  onConfirm: (table: TableDefinition) => void;
  /** For the mask previews of NUMBER and DATETIME columns. */
  extractorType?: ExtractorType;
}

/**
 * GET_TABLE's picker (spec §4 "Get table"): a panel beside the page view, not a modal, because the
 * user clicks the page while it is open. TABLE: click the table; ROW: click one row; COLUMN: click
 * cells of that row (the cell that found the row too), each with a label and a type (FILE needs a
 * link). Up and Down move the selection to the parent or first child; elements are named as a
 * person reads them (`td "User 1"`), their CSS path on hover.
 */
export function GetTablePanel({
  tableName,
  areas,
  pick,
  onHighlight,
  onCancel,
  onConfirm,
  extractorType,
}: GetTablePanelProps) {
  const { t } = useTranslation();
  const lookup = useMemo(() => lookupAreas(areas), [areas]);
  const { index } = lookup;
  const [state, dispatch] = useReducer(tablePickReducer, INITIAL_TABLE_PICK);
  const { stage, columns, nextPage } = state;

  const selected = selectedArea(state, pick, lookup);
  const table = state.table ? currentArea(lookup, state.table) : undefined;
  const row = state.row ? currentArea(lookup, state.row) : undefined;
  const rowSelector = table && row ? rowSelectorOf(index, table, row) : null;
  const describe = (area: PageElementArea) => describeArea(areas, index, area);

  const highlightedId = selected ? String(selected.id) : null;
  useEffect(() => {
    onHighlight(highlightedId);
  }, [onHighlight, highlightedId]);

  const parent = selected?.parentId == null ? undefined : index.get(selected.parentId);
  const child = selected ? firstChildOf(areas, selected.id) : undefined;
  const move = (area: PageElementArea) =>
    dispatch({ type: 'move', serial: pick.serial, selector: area.selector });

  // The rows like the picked one: counted while the row is chosen, then read for the preview.
  const candidateRow =
    stage === 'ROW' && table && selected && isInside(index, selected.id, table.id) ? selected : row;
  const candidateSelector = table && candidateRow ? rowSelectorOf(index, table, candidateRow) : null;
  const tableRows =
    table && candidateRow && candidateSelector !== null && candidateRow.id !== table.id
      ? rowsOf(areas, index, table, candidateRow, candidateSelector)
      : [];
  const cellTexts = (column: TableColumn) =>
    tableRows.map((tableRow) => {
      const cell = cellOf(areas, index, tableRow, column.selector);
      return cell ? textOf(areas, index, cell) : '';
    });
  const byColumn = columns.map(cellTexts);
  const previewRows = tableRows.map((_, position) => byColumn.map((texts) => texts[position] ?? ''));

  const finish = () => {
    if (!table || rowSelector === null) return;
    if (columns.length === 0) return dispatch({ type: 'problem', problem: 'need.column' });
    if (nextPage && maxPagesError(nextPage.maxPages)) return;
    onHighlight(null);
    onConfirm({
      name: tableName,
      tableSelector: table.selector,
      rowSelector,
      columns,
      rowsSeen: tableRows.length,
      ...(nextPage
        ? { nextPageSelector: nextPage.selector, maxPages: Number(nextPage.maxPages) }
        : { maxPages: 1 }),
    });
  };

  const next = () => {
    if (stage === 'COLUMN') return finish();
    if (!selected) return dispatch({ type: 'problem', problem: 'nothing.selected' });
    if (stage === 'TABLE') return dispatch({ type: 'choose-table', area: selected, serial: pick.serial });
    if (!table || selected.id === table.id || !isInside(index, selected.id, table.id))
      return dispatch({ type: 'problem', problem: 'outside.table' });
    dispatch({ type: 'choose-row', area: selected, serial: pick.serial });
  };

  const addColumn = (column: Omit<TableColumn, 'selector'>): boolean => {
    const problem =
      !row || !selected
        ? 'nothing.selected'
        : !isInside(index, selected.id, row.id)
          ? 'outside.row'
          : column.type === 'FILE' && !isFileColumnArea(selected)
            ? 'file.error'
            : null;
    if (problem || !row || !selected) {
      dispatch({ type: 'problem', problem: problem ?? 'nothing.selected' });
      return false;
    }
    dispatch({ type: 'add-column', column: { ...column, selector: columnSelectorOf(row, selected) } });
    return true;
  };

  /** The selection becomes the next-page button: anything but a part of the picked row. */
  const useAsNextPage = () => {
    if (!selected) return dispatch({ type: 'problem', problem: 'nothing.selected' });
    if (row && isInside(index, selected.id, row.id))
      return dispatch({ type: 'problem', problem: 'next.page.inside.row' });
    dispatch({
      type: 'next-page',
      nextPage: {
        selector: selected.selector,
        description: describe(selected),
        maxPages: nextPage?.maxPages ?? DEFAULT_MAX_PAGES,
      },
    });
  };

  const tableText = table ? describe(table) : '';
  const chosen =
    stage === 'COLUMN'
      ? t('dialogs.table.chosen', { table: tableText, count: tableRows.length })
      : stage === 'ROW'
        ? t('dialogs.table.chosen.table', { table: tableText })
        : null;

  return (
    <Paper
      component="section"
      aria-label={t('dialogs.table.title', { name: tableName })}
      variant="outlined"
      sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}
    >
      <Typography variant="h6" component="h2">
        {t('dialogs.table.title', { name: tableName })}
      </Typography>
      <Stepper activeStep={TABLE_STAGES.indexOf(stage)} alternativeLabel>
        {TABLE_STAGES.map((name) => (
          <Step key={name}>
            <StepLabel>{t(`dialogs.table.stage.${name}`)}</StepLabel>
          </Step>
        ))}
      </Stepper>
      <Typography variant="body2">{t(`dialogs.table.hint.${stage}`)}</Typography>
      {chosen && (
        <Typography variant="body2" color="text.secondary" data-testid="table-rows" title={table?.selector}>
          {chosen}
        </Typography>
      )}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography
          variant="body2"
          sx={{ flex: 1, wordBreak: 'break-word' }}
          data-testid="table-selection"
          data-selector={selected?.selector ?? ''}
          title={selected?.selector}
        >
          {selected
            ? t('dialogs.table.selected', { selector: describe(selected) })
            : t('dialogs.table.nothing.selected')}
        </Typography>
        <Button
          size="small"
          startIcon={<ArrowUpward />}
          disabled={!parent}
          onClick={() => parent && move(parent)}
        >
          {t('dialogs.table.up')}
        </Button>
        <Button
          size="small"
          startIcon={<ArrowDownward />}
          disabled={!child}
          onClick={() => child && move(child)}
        >
          {t('dialogs.table.down')}
        </Button>
      </Box>
      {stage === 'ROW' && candidateRow && tableRows.length > 0 && (
        <Typography variant="caption" color="text.secondary" data-testid="table-row-count">
          {t('dialogs.table.rows.like', { count: tableRows.length })}
        </Typography>
      )}

      {stage === 'COLUMN' && (
        <>
          <TableColumnsSection
            columns={columns}
            selected={selected}
            previewRows={previewRows}
            firstCells={byColumn.map((texts) => texts[0] ?? '')}
            extractorType={extractorType}
            onAdd={addColumn}
            onRemove={(position) => dispatch({ type: 'remove-column', position })}
          />
          <TableNextPageSection
            nextPage={nextPage}
            onUseSelection={useAsNextPage}
            onChange={(changed) => dispatch({ type: 'next-page', nextPage: changed })}
          />
        </>
      )}

      {state.problem && (
        <Alert severity="error" onClose={() => dispatch({ type: 'problem', problem: null })}>
          {t(`dialogs.table.${state.problem}`)}
        </Alert>
      )}
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1 }}>
        <Button
          onClick={() => {
            onHighlight(null);
            onCancel();
          }}
        >
          {t('dialogs.cancel')}
        </Button>
        <Button variant="contained" onClick={next}>
          {stage === 'COLUMN' ? t('dialogs.table.finish') : t('dialogs.table.next')}
        </Button>
      </Box>
    </Paper>
  );
}
