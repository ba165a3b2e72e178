import { useEffect, useMemo, useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  IconButton,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Paper,
  Step,
  StepLabel,
  Stepper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import {
  MESSAGES,
  VALUE_TYPES,
  isFileColumnArea,
  numberMaskRuleError,
  type ExtractorType,
  type PageElementArea,
  type TableColumn,
  type ValueType,
  type TableDefinition,
} from '@pagewright/shared';
import { DateMaskFields, DEFAULT_DATE_MASK, dateMaskErrors, type DateMaskValue } from './date-mask-fields';
import { DEFAULT_NUMBER_MASK, NumberMaskFields, type NumberMaskValue } from './number-mask-fields';
import {
  cellOf,
  columnSelectorOf,
  firstChildOf,
  indexAreas,
  isInside,
  rowSelectorOf,
  rowsOf,
  textOf,
} from './table-picking';

const STAGES = ['TABLE', 'ROW', 'COLUMN'] as const;
type Stage = (typeof STAGES)[number];

/** Rows shown in the preview before finishing. */
const PREVIEW_ROWS = 5;

export interface GetTablePanelProps {
  tableName: string;
  /** The page's normalized areas (with their parentId tree). */
  areas: readonly PageElementArea[];
  /** The area the user last clicked on the page view (String of its id). */
  pickedAreaId: string | null;
  /** Outline this area on the page view (null: none). */
  onHighlight(areaId: string | null): void;
  onCancel(): void;
  /** The definition for AddActionInput.options.table (maxPages 1 unless a next-page button is set). */
  onConfirm(table: TableDefinition): void;
  /** For the mask previews of NUMBER and DATETIME columns. */
  extractorType?: ExtractorType;
}

/** Where Up/Down moved the selection, relative to which page pick. */
interface Navigation {
  /** The pick the moves started from. */
  fromPick: string | null;
  selectedId: number | null;
}

interface ColumnDraft {
  label: string;
  type: ValueType;
  numberMask: NumberMaskValue;
  dateMask: DateMaskValue;
}

/** Pages read when a next-page button is set, until the operator says otherwise. */
const DEFAULT_MAX_PAGES = '10';
const MAX_PAGES_LIMIT = 1000;

/** A table spread over pages: the button clicked for the next one, and how many pages at most. */
interface NextPageDraft {
  selector: string;
  tagName: string;
  maxPages: string;
}

/** The error of a "most pages" field, or null when it is a whole number from 1 to 1000. */
export function maxPagesError(value: string): string | null {
  if (!value.trim()) return MESSAGES['error.required'];
  const pages = Number(value);
  return Number.isInteger(pages) && pages >= 1 && pages <= MAX_PAGES_LIMIT
    ? null
    : MESSAGES['error.invalid.value'];
}

const EMPTY_COLUMN: ColumnDraft = {
  label: '',
  type: 'TEXT',
  numberMask: DEFAULT_NUMBER_MASK,
  dateMask: DEFAULT_DATE_MASK,
};

/**
 * GET_TABLE's picker (spec §4 "Get table"): a side panel, not a modal, because the user clicks the
 * page while it is open. TABLE: click the table; ROW: click one row; COLUMN: click cells of that
 * row, each with a label and a type (FILE needs a link). Up and Down move the selection to the
 * parent or first child; Next advances and, in COLUMN, finishes after the preview of the first rows.
 */
export function GetTablePanel({
  tableName,
  areas,
  pickedAreaId,
  onHighlight,
  onCancel,
  onConfirm,
  extractorType,
}: GetTablePanelProps) {
  const { t } = useTranslation();
  const index = useMemo(() => indexAreas(areas), [areas]);
  const [stage, setStage] = useState<Stage>('TABLE');
  /** The page pick that was current when this stage began: it belongs to the previous stage. */
  const [stagePick, setStagePick] = useState<string | null>(null);
  const [navigation, setNavigation] = useState<Navigation>({ fromPick: null, selectedId: null });
  const [tableId, setTableId] = useState<number | null>(null);
  const [rowId, setRowId] = useState<number | null>(null);
  const [columns, setColumns] = useState<TableColumn[]>([]);
  const [draft, setDraft] = useState<ColumnDraft>(EMPTY_COLUMN);
  const [error, setError] = useState<string | null>(null);
  const [showLabelError, setShowLabelError] = useState(false);
  const [nextPage, setNextPage] = useState<NextPageDraft | null>(null);

  const pickedId = pickedAreaId !== null && pickedAreaId !== stagePick ? Number(pickedAreaId) : null;
  const selectedId =
    navigation.fromPick === pickedAreaId && navigation.selectedId !== null ? navigation.selectedId : pickedId;
  const selected = selectedId === null ? undefined : index.get(selectedId);
  const table = tableId === null ? undefined : index.get(tableId);
  const row = rowId === null ? undefined : index.get(rowId);
  const rowSelector = table && row ? rowSelectorOf(table, row) : null;

  const highlightedId = selected ? String(selected.id) : null;
  useEffect(() => {
    onHighlight(highlightedId);
  }, [onHighlight, highlightedId]);

  const select = (id: number | null) => {
    setNavigation({ fromPick: pickedAreaId, selectedId: id });
    setError(null);
  };
  const parent = selected?.parentId == null ? undefined : index.get(selected.parentId);
  const child = selected ? firstChildOf(areas, selected.id) : undefined;

  const beginStage = (next: Stage) => {
    setStage(next);
    setStagePick(pickedAreaId);
    setNavigation({ fromPick: null, selectedId: null });
    setError(null);
  };

  const finish = () => {
    if (!table || rowSelector === null) return;
    if (columns.length === 0) {
      setError(t('dialogs.table.need.column'));
      return;
    }
    if (nextPage && maxPagesError(nextPage.maxPages)) return;
    onHighlight(null);
    onConfirm({
      name: tableName,
      tableSelector: table.selector,
      rowSelector,
      columns,
      ...(nextPage
        ? { nextPageSelector: nextPage.selector, maxPages: Number(nextPage.maxPages) }
        : { maxPages: 1 }),
    });
  };

  /** The selection becomes the next-page button: anything but a part of the picked row. */
  const useAsNextPage = () => {
    if (!selected) {
      setError(t('dialogs.table.nothing.selected'));
      return;
    }
    if (row && isInside(index, selected.id, row.id)) {
      setError(t('dialogs.table.next.page.inside.row'));
      return;
    }
    setNextPage({
      selector: selected.selector,
      tagName: selected.tagName,
      maxPages: nextPage?.maxPages ?? DEFAULT_MAX_PAGES,
    });
    setError(null);
  };

  const next = () => {
    if (stage === 'COLUMN') return finish();
    if (!selected) {
      setError(t('dialogs.table.nothing.selected'));
      return;
    }
    if (stage === 'TABLE') {
      setTableId(selected.id);
      beginStage('ROW');
      return;
    }
    if (!table || selected.id === table.id || !isInside(index, selected.id, table.id)) {
      setError(t('dialogs.table.outside.table'));
      return;
    }
    setRowId(selected.id);
    beginStage('COLUMN');
  };

  const addColumn = (event: FormEvent) => {
    event.preventDefault();
    setShowLabelError(true);
    if (!row || !selected) {
      setError(t('dialogs.table.nothing.selected'));
      return;
    }
    if (!isInside(index, selected.id, row.id)) {
      setError(t('dialogs.table.outside.row'));
      return;
    }
    if (draft.type === 'FILE' && !isFileColumnArea(selected)) {
      setError(t('dialogs.table.file.error'));
      return;
    }
    const label = draft.label.trim();
    if (!label) return;
    if (draft.type === 'NUMBER' && numberMaskRuleError(draft.numberMask)) return;
    if (draft.type === 'DATETIME' && Object.keys(dateMaskErrors(draft.dateMask)).length > 0) return;
    setColumns((current) => [
      ...current,
      {
        label,
        selector: columnSelectorOf(row, selected),
        type: draft.type,
        ...(draft.type === 'NUMBER' ? { numberMask: draft.numberMask } : {}),
        ...(draft.type === 'DATETIME'
          ? { dateMask: { mask: draft.dateMask.mask.trim(), gmt: draft.dateMask.gmt } }
          : {}),
      },
    ]);
    setDraft(EMPTY_COLUMN);
    setShowLabelError(false);
    setError(null);
  };

  const tableRows = table && row && rowSelector !== null ? rowsOf(areas, index, table, row, rowSelector) : [];
  const previewRows = tableRows.slice(0, PREVIEW_ROWS).map((previewRow) =>
    columns.map((column) => {
      const cell = cellOf(areas, index, previewRow, column.selector);
      return cell ? textOf(areas, index, cell) : '';
    }),
  );
  const labelError = showLabelError && !draft.label.trim() ? MESSAGES['error.required'] : undefined;
  const columnElement = selected ? { selectorValue: selected.selector, xpathValue: selected.xpath } : null;

  return (
    <Paper
      component="section"
      aria-label={t('dialogs.table.title', { name: tableName })}
      variant="outlined"
      sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2, minWidth: 320, maxWidth: 480 }}
    >
      <Typography variant="h6" component="h2">
        {t('dialogs.table.title', { name: tableName })}
      </Typography>
      <Stepper activeStep={STAGES.indexOf(stage)} alternativeLabel>
        {STAGES.map((name) => (
          <Step key={name}>
            <StepLabel>{t(`dialogs.table.stage.${name}`)}</StepLabel>
          </Step>
        ))}
      </Stepper>
      <Typography variant="body2">{t(`dialogs.table.hint.${stage}`)}</Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography
          variant="caption"
          color="text.secondary"
          sx={{ flex: 1, wordBreak: 'break-all' }}
          data-testid="table-selection"
        >
          {selected
            ? t('dialogs.table.selected', { selector: `${selected.tagName} · ${selected.selector}` })
            : t('dialogs.table.nothing.selected')}
        </Typography>
        <Button
          size="small"
          startIcon={<ArrowUpward />}
          disabled={!parent}
          onClick={() => parent && select(parent.id)}
        >
          {t('dialogs.table.up')}
        </Button>
        <Button
          size="small"
          startIcon={<ArrowDownward />}
          disabled={!child}
          onClick={() => child && select(child.id)}
        >
          {t('dialogs.table.down')}
        </Button>
      </Box>

      {stage === 'COLUMN' && (
        <>
          <Box
            component="form"
            noValidate
            onSubmit={addColumn}
            sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
          >
            <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 140px', gap: 1 }}>
              <TextField
                label={t('dialogs.table.column.label')}
                value={draft.label}
                required
                size="small"
                onChange={(event) => setDraft({ ...draft, label: event.target.value.slice(0, 128) })}
                error={labelError !== undefined}
                helperText={labelError}
              />
              <TextField
                select
                label={t('dialogs.table.column.type')}
                value={draft.type}
                size="small"
                onChange={(event) => setDraft({ ...draft, type: event.target.value as ValueType })}
              >
                {VALUE_TYPES.map((type) => (
                  <MenuItem key={type} value={type}>
                    {t(`dialogs.value.type.${type}`)}
                  </MenuItem>
                ))}
              </TextField>
            </Box>
            {draft.type === 'NUMBER' && (
              <NumberMaskFields
                value={draft.numberMask}
                onChange={(numberMask) => setDraft({ ...draft, numberMask })}
                element={columnElement}
                extractorType={extractorType}
                showErrors={showLabelError}
              />
            )}
            {draft.type === 'DATETIME' && (
              <DateMaskFields
                value={draft.dateMask}
                onChange={(dateMask) => setDraft({ ...draft, dateMask })}
                element={columnElement}
                extractorType={extractorType}
                showErrors={showLabelError}
              />
            )}
            <Button type="submit" variant="outlined" sx={{ alignSelf: 'flex-start' }}>
              {t('dialogs.table.add.column')}
            </Button>
          </Box>
          <Box>
            <Typography variant="subtitle2" component="h3">
              {t('dialogs.table.columns')}
            </Typography>
            {columns.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                {t('dialogs.table.no.columns')}
              </Typography>
            ) : (
              <List dense aria-label={t('dialogs.table.columns')}>
                {columns.map((column, position) => (
                  <ListItem
                    key={`${column.label}-${position}`}
                    secondaryAction={
                      <IconButton
                        edge="end"
                        aria-label={t('dialogs.table.remove.column', { label: column.label })}
                        onClick={() => setColumns((current) => current.filter((_, at) => at !== position))}
                      >
                        <DeleteOutlined />
                      </IconButton>
                    }
                  >
                    <ListItemText
                      primary={`${column.label} (${t(`dialogs.value.type.${column.type}`)})`}
                      secondary={column.selector || row?.tagName}
                    />
                  </ListItem>
                ))}
              </List>
            )}
          </Box>
          {columns.length > 0 && (
            <Box>
              <Typography variant="subtitle2" component="h3">
                {t('dialogs.table.preview')}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                {t('dialogs.table.rows.found', { count: tableRows.length })}
              </Typography>
              <Table size="small" aria-label={t('dialogs.table.preview')}>
                <TableHead>
                  <TableRow>
                    {columns.map((column, position) => (
                      <TableCell key={position}>{column.label}</TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {previewRows.map((cells, rowPosition) => (
                    <TableRow key={rowPosition}>
                      {cells.map((text, position) => (
                        <TableCell key={position}>{text}</TableCell>
                      ))}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Box>
          )}
        </>
      )}

      {stage === 'COLUMN' && (
        <Box
          component="section"
          aria-label={t('dialogs.table.next.page')}
          sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}
        >
          <Typography variant="subtitle2" component="h3">
            {t('dialogs.table.next.page')}
          </Typography>
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{ wordBreak: 'break-all' }}
            data-testid="next-page-button"
          >
            {nextPage
              ? t('dialogs.table.next.page.selected', {
                  selector: `${nextPage.tagName} · ${nextPage.selector}`,
                })
              : t('dialogs.table.next.page.none')}
          </Typography>
          <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, flexWrap: 'wrap' }}>
            <Button size="small" variant="outlined" onClick={useAsNextPage}>
              {t('dialogs.table.next.page.use')}
            </Button>
            {nextPage && (
              <>
                <TextField
                  label={t('dialogs.table.max.pages')}
                  value={nextPage.maxPages}
                  size="small"
                  required
                  sx={{ width: 140 }}
                  slotProps={{ htmlInput: { inputMode: 'numeric' } }}
                  onChange={(event) =>
                    setNextPage({ ...nextPage, maxPages: event.target.value.replace(/\D/g, '').slice(0, 4) })
                  }
                  error={maxPagesError(nextPage.maxPages) !== null}
                  helperText={maxPagesError(nextPage.maxPages) ?? t('dialogs.table.max.pages.hint')}
                />
                <Button size="small" onClick={() => setNextPage(null)}>
                  {t('dialogs.table.next.page.remove')}
                </Button>
              </>
            )}
          </Box>
        </Box>
      )}

      {error && (
        <Alert severity="error" onClose={() => setError(null)}>
          {error}
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
