import { useState, type ReactNode } from 'react';
import { Alert, Box, ListSubheader, MenuItem, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import {
  ACTION_LABEL_MAX_LENGTH,
  MESSAGES,
  engineFieldPath,
  findEngineField,
  type EngineSection,
  type Investor,
} from '@pagewright/shared';
import { DialogFrame } from './dialog-frame';

/** What TYPE_F_ENGINE_FIELD records: the field as "section.field", and an optional label. */
export interface FieldChoice {
  field: string;
  label?: string;
}

export interface FieldSelectionDialogProps {
  open: boolean;
  /** The chosen investor's sections (the last fserviceDTO the builder received). */
  sections: readonly EngineSection[];
  /** The chosen investor, whose values the options show. */
  investor?: Investor | null | undefined;
  /** The element the field is typed into (picked now, or the edited action's); null when none. */
  elementSelector: string | null;
  /** Edit mode: the stored "section.field" and label to start from. */
  initialField?: string | null | undefined;
  initialLabel?: string | null | undefined;
  onCancel: () => void;
  /** Rejects to keep the dialog open (the builder shows the error). */
  onConfirm: (choice: FieldChoice) => void | Promise<void>;
}

/**
 * TYPE_F_ENGINE_FIELD's dialog: one field of the chosen investor's sections, grouped by section,
 * each showing the value a run would type now. Without sections no investor was chosen yet, so it
 * says to add the investor step first.
 */
export function FieldSelectionDialog(props: FieldSelectionDialogProps) {
  return props.open ? <OpenFieldSelectionDialog {...props} /> : null;
}

function OpenFieldSelectionDialog({
  sections,
  investor,
  elementSelector,
  initialField,
  initialLabel,
  onCancel,
  onConfirm,
}: FieldSelectionDialogProps) {
  const { t } = useTranslation();
  const [field, setField] = useState(() =>
    initialField && findEngineField(sections, initialField) ? initialField : '',
  );
  const [label, setLabel] = useState(initialLabel ?? '');
  const [showErrors, setShowErrors] = useState(false);
  const hasFields = sections.some((section) => section.fields.length > 0);
  const chosen = field ? findEngineField(sections, field) : undefined;
  const error = showErrors && !field ? MESSAGES['error.required'] : undefined;
  const valueText = (value: string | null) => value ?? t('dialogs.field.selection.no.value');
  const optionName = (sectionName: string, fieldLabel: string) =>
    t('dialogs.engine.field.option', { section: sectionName, field: fieldLabel });

  const items: ReactNode[] = sections
    .filter((section) => section.fields.length > 0)
    .flatMap((section) => [
      <ListSubheader key={`section:${section.key}`}>{section.name || section.key}</ListSubheader>,
      ...section.fields.map((candidate) => {
        const fieldLabel = candidate.label || candidate.key;
        return (
          <MenuItem
            key={engineFieldPath(section.key, candidate.key)}
            value={engineFieldPath(section.key, candidate.key)}
            aria-label={optionName(section.name || section.key, fieldLabel)}
            sx={{ display: 'flex', gap: 2, justifyContent: 'space-between' }}
          >
            <span>{fieldLabel}</span>
            <Typography variant="body2" color="text.disabled" noWrap sx={{ maxWidth: '50%' }}>
              {valueText(candidate.value)}
            </Typography>
          </MenuItem>
        );
      }),
    ]);

  return (
    <DialogFrame
      open
      title={t('dialogs.field.selection.title')}
      onCancel={onCancel}
      hasConfirm={hasFields}
      isConfirmDisabled={elementSelector === null}
      onSubmit={() => {
        setShowErrors(true);
        if (!field) return false;
        return onConfirm({ field, ...(label.trim() ? { label: label.trim() } : {}) });
      }}
    >
      {elementSelector !== null ? (
        <Typography variant="caption" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
          {t('dialogs.target.element', { selector: elementSelector })}
        </Typography>
      ) : (
        <Alert severity="warning">{t('dialogs.target.missing')}</Alert>
      )}
      {!hasFields ? (
        <Alert severity="info">{t('dialogs.field.selection.none')}</Alert>
      ) : (
        <>
          {investor && (
            <Typography variant="body2">
              {t('dialogs.engine.field.investor', { name: investor.name, portfolioid: investor.portfolioid })}
            </Typography>
          )}
          <TextField
            select
            autoFocus
            required
            label={t('dialogs.field.selection.field')}
            value={field}
            onChange={(event) => setField(event.target.value)}
            error={error !== undefined}
            helperText={
              error ??
              (chosen ? t('dialogs.engine.field.types', { value: valueText(chosen.field.value) }) : ' ')
            }
            slotProps={{
              select: {
                renderValue: () =>
                  chosen
                    ? optionName(
                        chosen.section.name || chosen.section.key,
                        chosen.field.label || chosen.field.key,
                      )
                    : '',
              },
            }}
          >
            {items}
          </TextField>
          <Box>
            <TextField
              fullWidth
              label={t('dialogs.field.label')}
              value={label}
              onChange={(event) => setLabel(event.target.value.slice(0, ACTION_LABEL_MAX_LENGTH))}
            />
          </Box>
        </>
      )}
    </DialogFrame>
  );
}
