import { useState } from 'react';
import { Alert, Box, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import {
  ACTION_LABEL_MAX_LENGTH,
  ELEMENT_ACTION_TYPES,
  nextSequence,
  type ActionType,
  type AddActionInput,
  type BuilderAction,
  type ElementTarget,
  type ExtractorType,
  type FserviceDto,
  type Investor,
} from '@pagewright/shared';
import { ActionFieldInput, type ActionFieldView } from './action-dialog-fields';
import {
  actionElement,
  actionFormContext,
  actionFormErrors,
  firstFieldOf,
  initialActionForm,
  toActionInput,
  type ActionForm,
} from './action-dialog-state';
import { DialogFrame } from './dialog-frame';
import { FieldSelectionDialog } from './field-selection-dialog';
import { InvestorDialog } from './investor-dialog';
import { SequenceField } from './sequence-field';

export interface ActionDialogProps {
  open: boolean;
  mode: 'add' | 'edit';
  actionType: ActionType;
  extractorType: ExtractorType;
  /** The current draft: sequence rules and IF_CONDITION sources. */
  actions: readonly BuilderAction[];
  /** The element picked on the page for element actions; null otherwise (and when editing). */
  target: ElementTarget | null;
  /** Edit mode: the action being changed. */
  action?: BuilderAction | undefined;
  /** CLICK_SELECT: the options of the picked list, when the builder knows them (else a text field). */
  selectOptions?: readonly { label: string; value: string }[] | undefined;
  /** ASK_F_ENGINE_INVESTOR: the engine's investors (the last managementDTO), null before sign-in. */
  engineInvestors?: readonly Investor[] | null | undefined;
  /** TYPE_F_ENGINE_FIELD: the chosen investor and its sections (the last fserviceDTO). */
  engineFields?: FserviceDto | null | undefined;
  onCancel: () => void;
  /**
   * The action as POST /extractor/ takes it. In edit mode `sequence` is the action's own (send it as
   * a ChangeActionRequest). GET_TABLE's `options.table` holds only the name (selectors empty, no
   * columns): the builder completes it with GetTablePanel's result. The dialog shows a spinner while
   * the promise runs and stays open if it rejects.
   */
  onConfirm: (input: AddActionInput) => void | Promise<void>;
}

/**
 * The Add Action / Edit Action dialog (spec §2, §5): the sequence and label of every action plus
 * the fields of its type (ACTION_FIELDS), checked by the spec's rules as the user confirms. ASK_F_ENGINE_INVESTOR
 * and TYPE_F_ENGINE_FIELD open their own selection dialogs. Fresh state on each open.
 */
export function ActionDialog(props: ActionDialogProps) {
  if (!props.open) return null;
  if (props.actionType === 'ASK_F_ENGINE_INVESTOR' || props.actionType === 'TYPE_F_ENGINE_FIELD')
    return <EngineChoiceDialog {...props} />;
  return <OpenActionDialog {...props} />;
}

/** The F-engine steps chosen from the engine's data: an investor, or one of its fields. */
function EngineChoiceDialog(props: ActionDialogProps) {
  const { actionType: type, mode, action, actions, target, onCancel, onConfirm } = props;
  const sequence =
    mode === 'edit' && action
      ? action.sequence
      : nextSequence(actions.map((candidate) => candidate.sequence));
  if (type === 'ASK_F_ENGINE_INVESTOR')
    return (
      <InvestorDialog
        open
        investors={props.engineInvestors ?? null}
        action={action}
        onCancel={onCancel}
        onConfirm={(choice) =>
          onConfirm({
            type,
            sequence,
            textValue: choice.question,
            saveOptionsFlag: choice.saveOptionsFlag,
            ...(choice.portfolioid ? { credentials: choice.portfolioid } : {}),
            ...(choice.label ? { label: choice.label } : {}),
          })
        }
      />
    );
  return (
    <FieldSelectionDialog
      open
      sections={props.engineFields?.sections ?? []}
      investor={props.engineFields?.investor}
      elementSelector={actionElement(target, action)?.selectorValue ?? null}
      initialField={action?.textValue}
      initialLabel={action?.label}
      onCancel={onCancel}
      onConfirm={(choice) =>
        onConfirm({
          type,
          sequence,
          textValue: choice.field,
          ...(choice.label ? { label: choice.label } : {}),
          ...(target ? { target } : {}),
        })
      }
    />
  );
}

function OpenActionDialog(props: ActionDialogProps) {
  const { actionType: type, extractorType, target, action, onCancel, onConfirm } = props;
  const { t } = useTranslation();
  const [form, setForm] = useState(() => initialActionForm(props));
  const [showErrors, setShowErrors] = useState(false);
  const set = <K extends keyof ActionForm>(part: K, value: ActionForm[K]) =>
    setForm((current) => ({ ...current, [part]: value }));

  const context = actionFormContext(props, form);
  const { isEdit, isFirstAction } = context;
  const element = actionElement(target, action);
  const isElementMissing = ELEMENT_ACTION_TYPES.includes(type) && element === null;
  const isWrongFirst = isFirstAction && type !== 'NAVIGATE';
  const { errors, hasErrors } = actionFormErrors(form, context);
  const firstField = firstFieldOf(context.fields, !isEdit && !isFirstAction);
  const view: ActionFieldView = {
    form,
    set,
    context,
    shown: showErrors ? errors : {},
    showErrors,
    firstField,
    previewElement: element ? { selectorValue: element.selectorValue, xpathValue: element.xpathValue } : null,
    extractorType,
  };

  const typeName = t(`dialogs.action.type.${type}`);
  return (
    <DialogFrame
      open
      title={t(isEdit ? 'dialogs.edit.title' : 'dialogs.add.title', { type: typeName })}
      onCancel={onCancel}
      isConfirmDisabled={isWrongFirst || isElementMissing}
      // The script editor needs the room.
      maxWidth={context.fields.some((field) => field.kind === 'script') ? 'md' : 'sm'}
      onSubmit={() => {
        setShowErrors(true);
        if (hasErrors) return false;
        return onConfirm(toActionInput(form, context));
      }}
    >
      {isWrongFirst && <Alert severity="warning">{t('extractor.first.action.navigate')}</Alert>}
      {isElementMissing && <Alert severity="warning">{t('dialogs.target.missing')}</Alert>}
      {element && (
        <Typography variant="caption" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
          {t('dialogs.target.element', { selector: element.selectorValue })}
        </Typography>
      )}
      {context.fields.map((field) => (
        <ActionFieldInput key={field.kind} field={field} view={view} />
      ))}
      <Box sx={{ display: 'grid', gridTemplateColumns: '160px 1fr', gap: 2 }}>
        <SequenceField
          label={t('dialogs.field.sequence')}
          value={form.sequence}
          onChange={(value) => set('sequence', value)}
          others={context.others}
          showErrors={showErrors}
          disabled={isEdit || isFirstAction}
          helperText={isFirstAction ? t('dialogs.first.action') : isEdit ? undefined : ' '}
          autoFocus={firstField === 'sequence'}
        />
        <TextField
          label={t('dialogs.field.label')}
          value={form.label}
          autoFocus={firstField === 'label'}
          onChange={(event) => set('label', event.target.value.slice(0, ACTION_LABEL_MAX_LENGTH))}
        />
      </Box>
    </DialogFrame>
  );
}
