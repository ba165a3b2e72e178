import { useState } from 'react';
import { Alert, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { BuilderAction } from '@pagewright/shared';
import { DialogFrame } from './dialog-frame';
import { SequenceField, sequenceError } from './sequence-field';

export interface SequenceDialogProps {
  open: boolean;
  /** The action to move. */
  action: BuilderAction;
  /** The current draft. */
  actions: readonly BuilderAction[];
  onCancel: () => void;
  /** The new sequence (PUT /extractor/sequence); the dialog stays open if the promise rejects. */
  onConfirm: (sequence: number) => void | Promise<void>;
}

/**
 * The card menu's "Edit sequence": a new sequence under the Add Action rules (not negative, above
 * the first action's, unused). The first action cannot be re-sequenced: the dialog only says so.
 */
export function SequenceDialog(props: SequenceDialogProps) {
  return props.open ? <OpenSequenceDialog {...props} /> : null;
}

function OpenSequenceDialog({ action, actions, onCancel, onConfirm }: SequenceDialogProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(String(action.sequence));
  const [showErrors, setShowErrors] = useState(false);
  const others = actions.filter((other) => other.id !== action.id).map((other) => other.sequence);
  const isFirst = others.length > 0 ? action.sequence < Math.min(...others) : true;

  return (
    <DialogFrame
      open
      title={t('dialogs.sequence.title')}
      onCancel={onCancel}
      hasConfirm={!isFirst}
      maxWidth="xs"
      onSubmit={() => {
        setShowErrors(true);
        if (sequenceError(text, others) !== undefined) return false;
        const sequence = Number(text);
        if (sequence === action.sequence) return onCancel();
        return onConfirm(sequence);
      }}
    >
      <Typography variant="body2" color="text.secondary">
        {t('dialogs.sequence.current', { sequence: action.sequence })}
      </Typography>
      {isFirst ? (
        <Alert severity="warning">{t('extractor.first.action.change.warning')}</Alert>
      ) : (
        <SequenceField
          label={t('dialogs.field.new.sequence')}
          value={text}
          onChange={setText}
          others={others}
          showErrors={showErrors}
          autoFocus
        />
      )}
    </DialogFrame>
  );
}
