import {
  Alert,
  Checkbox,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { LabelColumnRow } from '@pagewright/shared';
import { actionTitle } from '../../../lib/action-labels';
import { actionNameOfRow, rowKeyOf, rowNameOf } from '../label-columns';

/**
 * Step 2: every value the caller's extractors read (a label, or a column of a Get table), with a
 * check box each; the chosen ones go to step 3.
 */
export function LabelColumnStep({
  rows,
  selected,
  onChange,
}: {
  rows: readonly LabelColumnRow[];
  selected: ReadonlySet<string>;
  onChange: (selected: Set<string>) => void;
}) {
  const { t } = useTranslation();
  if (rows.length === 0) return <Alert severity="info">{t('datasets.rows.empty')}</Alert>;

  const chosenCount = rows.filter((row) => selected.has(rowKeyOf(row))).length;
  const toggle = (key: string, isChecked: boolean) => {
    const next = new Set(selected);
    if (isChecked) next.add(key);
    else next.delete(key);
    onChange(next);
  };

  return (
    <TableContainer sx={{ maxHeight: 480 }}>
      <Table size="small" stickyHeader aria-label={t('datasets.step.rows')}>
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox">
              <Checkbox
                checked={chosenCount === rows.length}
                indeterminate={chosenCount > 0 && chosenCount < rows.length}
                onChange={(event) =>
                  onChange(new Set(event.target.checked ? rows.map((row) => rowKeyOf(row)) : []))
                }
                slotProps={{ input: { 'aria-label': t('datasets.rows.use.all') } }}
              />
            </TableCell>
            <TableCell>{t('datasets.rows.extractor')}</TableCell>
            <TableCell>{t('datasets.rows.action')}</TableCell>
            <TableCell>{t('datasets.rows.table')}</TableCell>
            <TableCell>{t('datasets.rows.column')}</TableCell>
            <TableCell>{t('datasets.rows.action.type')}</TableCell>
            <TableCell>{t('datasets.rows.value.type')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => {
            const key = rowKeyOf(row);
            const about = row.extractorLabelTableColumnDto;
            return (
              <TableRow key={key} hover selected={selected.has(key)}>
                <TableCell padding="checkbox">
                  <Checkbox
                    checked={selected.has(key)}
                    onChange={(event) => toggle(key, event.target.checked)}
                    slotProps={{
                      input: { 'aria-label': t('datasets.rows.use.of', { name: rowNameOf(row, t) }) },
                    }}
                  />
                </TableCell>
                <TableCell>{about.extractorName}</TableCell>
                <TableCell>{actionNameOfRow(row, t)}</TableCell>
                <TableCell>{about.tableName ?? ''}</TableCell>
                <TableCell>{about.tableColumnName ?? ''}</TableCell>
                <TableCell>{actionTitle(row.actionType, t)}</TableCell>
                <TableCell>{t(`dialogs.value.type.${row.valueType}`)}</TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
