import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  IconButton,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import { VALUE_TYPES, type ValueType } from '@pagewright/shared';
import { blankFieldRow, displayColumns, type FieldRow } from '../field-rules';

/**
 * Step 1: the dataset's fields (name, type, key flag), a row each, and the columns they make: a
 * FILE field makes two, its file name and its file link. `errors` holds the text shown under each
 * row's name (by row key). An F-Engine dataset's fields are its engine entity's: shown read-only.
 */
export function FieldStep({
  rows,
  errors,
  isReadOnly = false,
  onChange,
  onRemove,
}: {
  rows: readonly FieldRow[];
  errors: ReadonlyMap<string, string>;
  isReadOnly?: boolean;
  onChange: (rows: FieldRow[]) => void;
  /** Removes a row; a saved field is removed by the server first, which may refuse. */
  onRemove: (row: FieldRow) => void;
}) {
  const { t } = useTranslation();
  const change = (rowKey: string, patch: Partial<FieldRow>) =>
    onChange(rows.map((row) => (row.rowKey === rowKey ? { ...row, ...patch } : row)));
  const columns = displayColumns(rows, {
    fileName: (name) => t('columns.file.name', { name }),
    fileLink: (name) => t('columns.file.link', { name }),
  });

  return (
    <Box>
      {isReadOnly && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('datasets.fields.engine')}
        </Alert>
      )}
      <Table size="small" aria-label={t('datasets.step.fields')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('datasets.fields.name')}</TableCell>
            <TableCell sx={{ width: 200 }}>{t('datasets.field.type')}</TableCell>
            <TableCell sx={{ width: 80 }} align="center">
              <Tooltip title={t('datasets.fields.key.hint')}>
                <span>{t('datasets.fields.key')}</span>
              </Tooltip>
            </TableCell>
            <TableCell sx={{ width: 56 }} />
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row, index) => {
            const number = index + 1;
            const error = errors.get(row.rowKey);
            return (
              <TableRow key={row.rowKey} data-testid="dataset-field-row">
                <TableCell sx={{ verticalAlign: 'top' }}>
                  <TextField
                    fullWidth
                    size="small"
                    autoFocus={index === rows.length - 1 && row.name === ''}
                    slotProps={{ htmlInput: { 'aria-label': t('datasets.fields.name.of', { number }) } }}
                    value={row.name}
                    disabled={isReadOnly}
                    onChange={(event) => change(row.rowKey, { name: event.target.value })}
                    error={error !== undefined}
                    helperText={error}
                  />
                </TableCell>
                <TableCell sx={{ verticalAlign: 'top' }}>
                  <TextField
                    select
                    fullWidth
                    size="small"
                    value={row.type}
                    disabled={isReadOnly}
                    onChange={(event) => change(row.rowKey, { type: event.target.value as ValueType })}
                    slotProps={{
                      select: { inputProps: { 'aria-label': t('datasets.fields.type.of', { number }) } },
                    }}
                  >
                    {VALUE_TYPES.map((type) => (
                      <MenuItem key={type} value={type}>
                        {t(`dialogs.value.type.${type}`)}
                      </MenuItem>
                    ))}
                  </TextField>
                </TableCell>
                <TableCell align="center" sx={{ verticalAlign: 'top' }}>
                  <Checkbox
                    checked={row.dataSetKey}
                    disabled={isReadOnly}
                    onChange={(event) => change(row.rowKey, { dataSetKey: event.target.checked })}
                    slotProps={{ input: { 'aria-label': t('datasets.fields.key.of', { number }) } }}
                  />
                </TableCell>
                <TableCell sx={{ verticalAlign: 'top' }}>
                  {!isReadOnly && (
                    <IconButton
                      aria-label={t('datasets.fields.remove.of', { number })}
                      onClick={() => onRemove(row)}
                    >
                      <DeleteOutlined fontSize="small" />
                    </IconButton>
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      {!isReadOnly && (
        <Button startIcon={<Add />} onClick={() => onChange([...rows, blankFieldRow()])} sx={{ mt: 1 }}>
          {t('datasets.fields.add')}
        </Button>
      )}
      {columns.length > 0 && (
        <Box sx={{ mt: 2 }}>
          <Typography variant="subtitle2" component="h2" id="dataset-columns-title" gutterBottom>
            {t('datasets.fields.columns')}
          </Typography>
          <Stack
            direction="row"
            useFlexGap
            sx={{ flexWrap: 'wrap', gap: 1 }}
            role="list"
            aria-labelledby="dataset-columns-title"
          >
            {columns.map((column) => (
              <Chip key={column.key} role="listitem" label={column.label} size="small" variant="outlined" />
            ))}
          </Stack>
        </Box>
      )}
    </Box>
  );
}
