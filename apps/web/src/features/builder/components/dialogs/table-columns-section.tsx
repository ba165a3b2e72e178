import { useState, type FormEvent } from 'react';
import {
  Box,
  Button,
  IconButton,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import {
  MESSAGES,
  VALUE_TYPES,
  numberMaskRuleError,
  type ExtractorType,
  type PageElementArea,
  type TableColumn,
  type ValueType,
} from '@pagewright/shared';
import { DateMaskFields, DEFAULT_DATE_MASK, dateMaskErrors, type DateMaskValue } from './date-mask-fields';
import { DEFAULT_NUMBER_MASK, NumberMaskFields, type NumberMaskValue } from './number-mask-fields';

/** Rows shown in the preview before finishing. */
const PREVIEW_ROWS = 5;

interface ColumnDraft {
  label: string;
  type: ValueType;
  numberMask: NumberMaskValue;
  dateMask: DateMaskValue;
}

const EMPTY_COLUMN: ColumnDraft = {
  label: '',
  type: 'TEXT',
  numberMask: DEFAULT_NUMBER_MASK,
  dateMask: DEFAULT_DATE_MASK,
};

export interface TableColumnsSectionProps {
  columns: readonly TableColumn[];
  /** The selected element (the cell the next column reads), if any. */
  selected: PageElementArea | undefined;
  /** Each column's cell text in the first rows, column by column. */
  previewRows: readonly string[][];
  /** The first row's text of each column (how the list names where a column reads). */
  firstCells: readonly string[];
  extractorType?: ExtractorType;
  /** Checks the selection can be a column (inside the row, a link for File); false: it said why. */
  onAdd: (draft: Omit<TableColumn, 'selector'>) => boolean;
  onRemove: (position: number) => void;
}

/** The COLUMN stage: name and type the selected cell, the columns so far, and a preview. */
export function TableColumnsSection({
  columns,
  selected,
  previewRows,
  firstCells,
  extractorType,
  onAdd,
  onRemove,
}: TableColumnsSectionProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<ColumnDraft>(EMPTY_COLUMN);
  const [showErrors, setShowErrors] = useState(false);
  const labelError = showErrors && !draft.label.trim() ? MESSAGES['error.required'] : undefined;
  const columnElement = selected ? { selectorValue: selected.selector, xpathValue: selected.xpath } : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setShowErrors(true);
    const label = draft.label.trim();
    if (!label) return;
    if (draft.type === 'NUMBER' && numberMaskRuleError(draft.numberMask)) return;
    if (draft.type === 'DATETIME' && Object.keys(dateMaskErrors(draft.dateMask)).length > 0) return;
    const added = onAdd({
      label,
      type: draft.type,
      ...(draft.type === 'NUMBER' ? { numberMask: draft.numberMask } : {}),
      ...(draft.type === 'DATETIME'
        ? { dateMask: { mask: draft.dateMask.mask.trim(), gmt: draft.dateMask.gmt } }
        : {}),
    });
    if (!added) return;
    setDraft(EMPTY_COLUMN);
    setShowErrors(false);
  };

  return (
    <>
      <Box
        component="form"
        noValidate
        onSubmit={submit}
        sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
      >
        <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 140px', gap: 1 }}>
          <TextField
            label={t('dialogs.table.column.label')}
            value={draft.label}
            required
            size="small"
            margin="none"
            onChange={(event) => setDraft({ ...draft, label: event.target.value.slice(0, 128) })}
            error={labelError !== undefined}
            helperText={labelError}
          />
          <TextField
            select
            label={t('dialogs.table.column.type')}
            value={draft.type}
            size="small"
            margin="none"
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
            showErrors={showErrors}
          />
        )}
        {draft.type === 'DATETIME' && (
          <DateMaskFields
            value={draft.dateMask}
            onChange={(dateMask) => setDraft({ ...draft, dateMask })}
            element={columnElement}
            extractorType={extractorType}
            showErrors={showErrors}
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
                    onClick={() => onRemove(position)}
                  >
                    <DeleteOutlined />
                  </IconButton>
                }
              >
                <ListItemText
                  primary={`${column.label} (${t(`dialogs.value.type.${column.type}`)})`}
                  secondary={
                    firstCells[position]
                      ? t('dialogs.table.column.first', { text: firstCells[position] })
                      : t('dialogs.table.column.empty')
                  }
                  slotProps={{ secondary: { title: column.selector } }}
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
          <Table size="small" aria-label={t('dialogs.table.preview')}>
            <TableHead>
              <TableRow>
                {columns.map((column, position) => (
                  <TableCell key={position}>{column.label}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {previewRows.slice(0, PREVIEW_ROWS).map((cells, rowPosition) => (
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
  );
}
