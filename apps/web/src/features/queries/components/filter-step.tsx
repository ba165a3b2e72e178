import { Alert, Box, Button, IconButton, MenuItem, Stack, TextField, Typography } from '@mui/material';
import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import type { QueryDatasetField, QueryOperatorDto } from '@pagewright/shared';
import { blankFilterRow, operatorsFor, type FilterRow, type FilterRowErrors } from '../filter-rules';
import { FilterValueInput } from './filter-value-input';

/**
 * Step 3: filter rows of field, operator (those that apply to the field's type) and value (as the
 * operator wants it); rows are added and removed freely. `notice` is shown above the rows.
 */
export function FilterStep({
  fields,
  operators,
  rows,
  errors,
  notice,
  onChange,
  onRemove,
}: {
  fields: readonly QueryDatasetField[];
  operators: readonly QueryOperatorDto[];
  rows: readonly FilterRow[];
  errors: ReadonlyMap<string, FilterRowErrors>;
  notice: string | null;
  onChange: (rows: FilterRow[]) => void;
  onRemove: (row: FilterRow) => void;
}) {
  const { t } = useTranslation();
  const change = (rowKey: string, patch: Partial<FilterRow>) =>
    onChange(rows.map((row) => (row.rowKey === rowKey ? { ...row, ...patch } : row)));

  return (
    <Box>
      {notice && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {notice}
        </Alert>
      )}
      {rows.length === 0 && <Typography color="text.secondary">{t('queries.filters.none')}</Typography>}
      <Stack spacing={2}>
        {rows.map((row, index) => {
          const number = index + 1;
          const field = fields.find((candidate) => candidate.datasetFieldId === row.datasetFieldId);
          const offered = operatorsFor(operators, field?.type);
          const operator = offered.find((candidate) => candidate.operatorId === row.operatorId);
          const rowErrors = errors.get(row.rowKey) ?? {};
          return (
            <Stack
              key={row.rowKey}
              direction={{ xs: 'column', md: 'row' }}
              spacing={1}
              sx={{ alignItems: { md: 'flex-start' } }}
              data-testid="query-filter-row"
            >
              <TextField
                select
                size="small"
                label={t('queries.filters.field')}
                value={row.datasetFieldId}
                error={rowErrors.field === true}
                onChange={(event) => {
                  const next = fields.find((candidate) => candidate.datasetFieldId === event.target.value);
                  const stillApplies = operatorsFor(operators, next?.type).some(
                    (candidate) => candidate.operatorId === row.operatorId,
                  );
                  change(row.rowKey, {
                    datasetFieldId: event.target.value,
                    ...(stillApplies ? {} : { operatorId: null, inputValue: '' }),
                  });
                }}
                sx={{ minWidth: 200 }}
                slotProps={{
                  // The row's own name rather than the shared visible label.
                  select: {
                    SelectDisplayProps: {
                      'aria-label': t('queries.filters.field.of', { number }),
                      'aria-labelledby': undefined,
                    },
                  },
                }}
              >
                {fields.map((candidate) => (
                  <MenuItem key={candidate.datasetFieldId} value={candidate.datasetFieldId}>
                    {candidate.name}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                select
                size="small"
                label={t('queries.filters.operator')}
                value={operator ? String(operator.operatorId) : ''}
                error={rowErrors.operator === true}
                disabled={field === undefined}
                onChange={(event) => {
                  const next = offered.find(
                    (candidate) => String(candidate.operatorId) === event.target.value,
                  );
                  change(row.rowKey, {
                    operatorId: next?.operatorId ?? null,
                    // A value typed for another kind of input would not fit this one.
                    ...(next?.valueType === operator?.valueType ? {} : { inputValue: '' }),
                  });
                }}
                sx={{ minWidth: 180 }}
                slotProps={{
                  // The row's own name rather than the shared visible label.
                  select: {
                    SelectDisplayProps: {
                      'aria-label': t('queries.filters.operator.of', { number }),
                      'aria-labelledby': undefined,
                    },
                  },
                }}
              >
                {offered.map((candidate) => (
                  <MenuItem key={candidate.operatorId} value={String(candidate.operatorId)}>
                    {candidate.name}
                  </MenuItem>
                ))}
              </TextField>
              <Box sx={{ flex: 1, minWidth: 200 }}>
                {operator && (
                  <FilterValueInput
                    valueType={operator.valueType}
                    value={row.inputValue}
                    number={number}
                    error={rowErrors.value}
                    onChange={(inputValue) => change(row.rowKey, { inputValue })}
                  />
                )}
              </Box>
              <IconButton
                aria-label={t('queries.filters.remove.of', { number })}
                onClick={() => onRemove(row)}
              >
                <DeleteOutlined fontSize="small" />
              </IconButton>
            </Stack>
          );
        })}
      </Stack>
      <Button startIcon={<Add />} onClick={() => onChange([...rows, blankFilterRow()])} sx={{ mt: 2 }}>
        {t('queries.filters.add')}
      </Button>
    </Box>
  );
}
