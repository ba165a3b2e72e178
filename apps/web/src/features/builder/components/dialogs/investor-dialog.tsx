import { useState } from 'react';
import { Alert, Checkbox, FormControlLabel, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import {
  ACTION_LABEL_MAX_LENGTH,
  MESSAGES,
  TEXT_FIELD_MAX_LENGTH,
  type BuilderAction,
  type Investor,
} from '@pagewright/shared';
import { InvestorList } from '../../../../components/investor-list';
import { DialogFrame } from './dialog-frame';

/** What ASK_F_ENGINE_INVESTOR records: the question, the chosen portfolioid and the save flag. */
export interface InvestorChoice {
  question: string;
  /** The chosen investor's portfolioid; absent when an edit keeps the stored one. */
  portfolioid?: string;
  saveOptionsFlag: boolean;
  label?: string;
}

export interface InvestorDialogProps {
  open: boolean;
  /** The engine's investors the builder knows (managementDTO), null before it signed in. */
  investors: readonly Investor[] | null;
  /** Edit mode: the action being changed (its question, label and save flag). */
  action?: BuilderAction | undefined;
  onCancel: () => void;
  /** Rejects to keep the dialog open (the builder shows the error). */
  onConfirm: (choice: InvestorChoice) => void | Promise<void>;
}

/**
 * ASK_F_ENGINE_INVESTOR's dialog: the investors the engine listed when the builder signed in to
 * it, searchable, and the question a run asks. Without investors the builder has not signed in
 * (the three sign-in asks come first), so it says so and offers no Confirm.
 */
export function InvestorDialog(props: InvestorDialogProps) {
  return props.open ? <OpenInvestorDialog {...props} /> : null;
}

function OpenInvestorDialog({ investors, action, onCancel, onConfirm }: InvestorDialogProps) {
  const { t } = useTranslation();
  const [question, setQuestion] = useState(action?.textValue ?? t('dialogs.investor.question.default'));
  const [portfolioid, setPortfolioid] = useState<string | null>(null);
  const [isSaved, setIsSaved] = useState(action?.saveOptionsFlag ?? false);
  const [label, setLabel] = useState(action?.label ?? '');
  const [showErrors, setShowErrors] = useState(false);
  const hasInvestors = investors !== null && investors.length > 0;
  // An edit may keep the investor it stored; a new step needs one.
  const isChoiceRequired = !action?.hasCredentials;
  const questionError = showErrors && !question.trim() ? MESSAGES['error.required'] : undefined;
  const choiceError = showErrors && isChoiceRequired && !portfolioid ? MESSAGES['error.required'] : undefined;
  return (
    <DialogFrame
      open
      title={t('dialogs.investor.title')}
      onCancel={onCancel}
      hasConfirm={hasInvestors}
      onSubmit={() => {
        setShowErrors(true);
        if (!question.trim() || (isChoiceRequired && !portfolioid)) return false;
        return onConfirm({
          question: question.trim(),
          ...(portfolioid ? { portfolioid } : {}),
          saveOptionsFlag: isSaved,
          ...(label.trim() ? { label: label.trim() } : {}),
        });
      }}
    >
      {!hasInvestors ? (
        <Alert severity="info">{t('extractor.investor.sign.in')}</Alert>
      ) : (
        <>
          <TextField
            label={t('dialogs.field.question')}
            value={question}
            required
            onChange={(event) => setQuestion(event.target.value.slice(0, TEXT_FIELD_MAX_LENGTH))}
            error={questionError !== undefined}
            helperText={questionError}
          />
          <InvestorList
            investors={investors}
            value={portfolioid}
            onChange={setPortfolioid}
            error={choiceError}
            autoFocus
          />
          {!isChoiceRequired && (
            <Typography variant="caption" color="text.secondary">
              {t('dialogs.investor.keep')}
            </Typography>
          )}
          <FormControlLabel
            control={<Checkbox checked={isSaved} onChange={(event) => setIsSaved(event.target.checked)} />}
            label={t('dialogs.field.save.next.time')}
          />
          <TextField
            label={t('dialogs.field.label')}
            value={label}
            onChange={(event) => setLabel(event.target.value.slice(0, ACTION_LABEL_MAX_LENGTH))}
          />
        </>
      )}
    </DialogFrame>
  );
}
