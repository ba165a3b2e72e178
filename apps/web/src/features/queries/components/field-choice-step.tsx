import {
  Alert,
  Checkbox,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import {
  ORDER_TYPES,
  SORT_SEQUENCE_MAX,
  SORT_SEQUENCE_MIN,
  type OrderType,
  type QueryDatasetField,
} from '@pagewright/shared';
import type { FieldChoice } from '../field-choices';

const SEQUENCES = Array.from(
  { length: SORT_SEQUENCE_MAX - SORT_SEQUENCE_MIN + 1 },
  (_, index) => SORT_SEQUENCE_MIN + index,
);

/** Step 2: which fields show as columns, and each one's order type and order sequence (1-9). */
export function FieldChoiceStep({
  fields,
  choices,
  errors,
  notice,
  onChange,
}: {
  fields: readonly QueryDatasetField[];
  choices: ReadonlyMap<string, FieldChoice>;
  /** Texts under a field's order sequence, by dataset field id. */
  errors: ReadonlyMap<string, string>;
  notice: string | null;
  onChange: (choices: Map<string, FieldChoice>) => void;
}) {
  const { t } = useTranslation();
  const change = (fieldId: string, patch: Partial<FieldChoice>) => {
    const next = new Map(choices);
    const current = next.get(fieldId) ?? { isShown: false, orderType: null, orderSequence: null };
    next.set(fieldId, { ...current, ...patch });
    onChange(next);
  };

  return (
    <>
      {notice && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {notice}
        </Alert>
      )}
      <TableContainer>
        <Table size="small" aria-label={t('queries.step.fields')}>
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox">{t('queries.fields.show')}</TableCell>
              <TableCell>{t('queries.fields.field')}</TableCell>
              <TableCell sx={{ width: 180 }}>{t('queries.fields.order.type')}</TableCell>
              <TableCell sx={{ width: 160 }}>{t('queries.fields.order.sequence')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {fields.map((field) => {
              const choice = choices.get(field.datasetFieldId);
              const isShown = choice?.isShown ?? false;
              const error = errors.get(field.datasetFieldId);
              return (
                <TableRow key={field.datasetFieldId} selected={isShown}>
                  <TableCell padding="checkbox">
                    <Checkbox
                      checked={isShown}
                      onChange={(event) => change(field.datasetFieldId, { isShown: event.target.checked })}
                      slotProps={{
                        input: { 'aria-label': t('queries.fields.show.of', { name: field.name }) },
                      }}
                    />
                  </TableCell>
                  <TableCell>
                    {field.name} ({t(`dialogs.value.type.${field.type}`)})
                  </TableCell>
                  <TableCell>
                    <TextField
                      select
                      fullWidth
                      size="small"
                      disabled={!isShown}
                      value={choice?.orderType ?? ''}
                      onChange={(event) =>
                        change(field.datasetFieldId, {
                          orderType: event.target.value === '' ? null : (event.target.value as OrderType),
                        })
                      }
                      slotProps={{
                        select: {
                          displayEmpty: true,
                          inputProps: {
                            'aria-label': t('queries.fields.order.type.of', { name: field.name }),
                          },
                        },
                      }}
                    >
                      <MenuItem value="">{t('queries.order.none')}</MenuItem>
                      {ORDER_TYPES.map((type) => (
                        <MenuItem key={type} value={type}>
                          {t(`queries.order.${type}`)}
                        </MenuItem>
                      ))}
                    </TextField>
                  </TableCell>
                  <TableCell>
                    <TextField
                      select
                      fullWidth
                      size="small"
                      disabled={!isShown}
                      value={choice?.orderSequence == null ? '' : String(choice.orderSequence)}
                      onChange={(event) =>
                        change(field.datasetFieldId, {
                          orderSequence: event.target.value === '' ? null : Number(event.target.value),
                        })
                      }
                      error={error !== undefined}
                      helperText={error}
                      slotProps={{
                        select: {
                          displayEmpty: true,
                          inputProps: {
                            'aria-label': t('queries.fields.order.sequence.of', { name: field.name }),
                          },
                        },
                      }}
                    >
                      <MenuItem value="">{t('queries.order.none')}</MenuItem>
                      {SEQUENCES.map((sequence) => (
                        <MenuItem key={sequence} value={String(sequence)}>
                          {sequence}
                        </MenuItem>
                      ))}
                    </TextField>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
    </>
  );
}
