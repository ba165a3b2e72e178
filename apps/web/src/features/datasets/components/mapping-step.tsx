import {
  Checkbox,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { LabelColumnMappingRow } from '@pagewright/shared';
import { rowKeyOf, rowNameOf } from '../label-columns';

/** Step 3: one row per value chosen in step 2, one check box column per field: the fields each value fills. */
export function MappingStep({
  rows,
  fieldNames,
  onChange,
}: {
  rows: readonly LabelColumnMappingRow[];
  fieldNames: readonly string[];
  onChange: (rows: LabelColumnMappingRow[]) => void;
}) {
  const { t } = useTranslation();
  const toggle = (rowKey: string, fieldName: string, isChecked: boolean) =>
    onChange(
      rows.map((row) =>
        rowKeyOf(row) === rowKey
          ? {
              ...row,
              checkBoxes: row.checkBoxes.map((box) =>
                box.datasetFieldName === fieldName ? { ...box, checked: isChecked } : box,
              ),
            }
          : row,
      ),
    );

  return (
    <>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        {t('datasets.mapping.hint')}
      </Typography>
      <TableContainer sx={{ maxHeight: 480 }}>
        <Table size="small" stickyHeader aria-label={t('datasets.step.mapping')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('datasets.mapping.value')}</TableCell>
              {fieldNames.map((name) => (
                <TableCell key={name} align="center">
                  {name}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => {
              const key = rowKeyOf(row);
              const value = rowNameOf(row, t);
              return (
                <TableRow key={key} hover>
                  <TableCell component="th" scope="row">
                    {value}
                  </TableCell>
                  {fieldNames.map((field) => {
                    const box = row.checkBoxes.find((candidate) => candidate.datasetFieldName === field);
                    return (
                      <TableCell key={field} align="center" padding="checkbox">
                        <Checkbox
                          checked={box?.checked ?? false}
                          disabled={!box}
                          onChange={(event) => toggle(key, field, event.target.checked)}
                          slotProps={{ input: { 'aria-label': t('datasets.mapping.box', { value, field }) } }}
                        />
                      </TableCell>
                    );
                  })}
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
    </>
  );
}
