import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  LinearProgress,
  Stack,
  TextField,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import {
  ASK_CANCELED,
  DIALOG_CONFIRM_COOLDOWN_MS,
  RECAPTCHA_DONE,
  TEXT_FIELD_MAX_LENGTH,
  type PageElementArea,
  type PendingAskAction,
} from '@pagewright/shared';
import { InvestorList } from '../../../components/investor-list';
import { PasswordField } from '../../../components/password-field';
import { errorText } from '../../../lib/api-client';
import { AskPicture } from './ask-picture';
import { RecaptchaAreas } from './recaptcha-areas';

/** Asks answered through a password field: the answer is a secret. */
const SECRET_ASK_TYPES: readonly PendingAskAction['type'][] = ['ASK_PASSWORD', 'ASK_F_ENGINE_PASSWORD'];

export interface AskAnswer {
  textValue: string;
  saveOptionsFlag: boolean;
}

export interface AskDialogProps {
  ask: PendingAskAction;
  /** Sends an answer; a rejection is shown in the dialog, which then stays open. */
  onAnswer: (answer: AskAnswer) => Promise<void>;
  /** reCAPTCHA: sends the picked area's selector; the host then fetches the refreshed ask. */
  onPickArea: (area: PageElementArea) => Promise<void>;
  /** reCAPTCHA: true while the widget reacts to a click and its new picture is fetched. */
  isRefreshing: boolean;
}

/**
 * The ask dialog (spec §4 "Ask dialog"): a run waits on this answer. Confirm sends the typed value
 * (Enter submits), Cancel sends 'CANCELED'. Confirm stays disabled for DIALOG_CONFIRM_COOLDOWN_MS
 * after each click so that a double click never sends two answers.
 */
export function AskDialog({ ask, onAnswer, onPickArea, isRefreshing }: AskDialogProps) {
  const { t } = useTranslation();
  const isRecaptcha = ask.type === 'ASK_RECAPTCHA';
  const isInvestor = ask.type === 'ASK_F_ENGINE_INVESTOR';
  const investors = ask.managementDTO?.investors ?? [];
  // Without investors the run has not signed in to the F-engine: nothing to choose, only Cancel.
  const isSignInMissing = isInvestor && investors.length === 0;
  const [value, setValue] = useState('');
  const [isSaved, setIsSaved] = useState(ask.saveOptionsFlag && ask.isActionSaved);
  const [isUnsavedWarningShown, setIsUnsavedWarningShown] = useState(false);
  const [isCoolingDown, setIsCoolingDown] = useState(false);
  const [isSending, setIsSending] = useState(false);
  const [isRequiredShown, setIsRequiredShown] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const cooldown = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(cooldown.current), []);

  const startCooldown = () => {
    setIsCoolingDown(true);
    window.clearTimeout(cooldown.current);
    cooldown.current = window.setTimeout(() => setIsCoolingDown(false), DIALOG_CONFIRM_COOLDOWN_MS);
  };

  const send = async (answer: AskAnswer) => {
    setIsSending(true);
    setError(null);
    try {
      await onAnswer(answer);
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setIsSending(false);
    }
  };

  const onConfirm = (event: FormEvent) => {
    event.preventDefault();
    if (isCoolingDown || isSending || isRefreshing || isSignInMissing) return;
    startCooldown();
    if (isRecaptcha) {
      void send({ textValue: RECAPTCHA_DONE, saveOptionsFlag: false });
      return;
    }
    if (value.trim() === '') {
      setIsRequiredShown(true);
      return;
    }
    void send({ textValue: value, saveOptionsFlag: isSaved });
  };

  const onSaveChange = (checked: boolean) => {
    // An answer is kept per saved action: a validation's new draft action has none yet.
    if (checked && !ask.isActionSaved) {
      setIsUnsavedWarningShown(true);
      return;
    }
    setIsUnsavedWarningShown(false);
    setIsSaved(checked);
  };

  const onPick = async (area: PageElementArea) => {
    setError(null);
    try {
      await onPickArea(area);
    } catch (failure) {
      setError(errorText(failure));
    }
  };

  const question = ask.options.text;
  const title = ask.label || t(isRecaptcha ? 'ask.title.recaptcha' : 'ask.title.default');
  const multiStepPicture = ask.options.askMultiStepDto?.askDataScreenshot ?? null;
  const elementPicture = ask.elementScreenshot;
  const fieldProps = {
    autoFocus: true,
    fullWidth: true,
    margin: 'normal' as const,
    label: t('ask.answer'),
    value,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      setValue(event.target.value);
      setIsRequiredShown(false);
    },
    error: isRequiredShown,
    helperText: isRequiredShown ? t('error.required') : undefined,
    autoComplete: 'off',
    slotProps: { htmlInput: { maxLength: TEXT_FIELD_MAX_LENGTH } },
  };

  return (
    <Dialog open fullWidth maxWidth="sm" aria-labelledby="ask-dialog-title" data-testid="ask-dialog">
      <Box component="form" noValidate onSubmit={onConfirm}>
        <DialogTitle id="ask-dialog-title">{title}</DialogTitle>
        <DialogContent>
          {question && question !== title && <DialogContentText sx={{ mb: 2 }}>{question}</DialogContentText>}
          <Stack spacing={2}>
            {isRecaptcha && elementPicture && (
              <RecaptchaAreas
                base64={elementPicture}
                areas={ask.normalizedElements ?? []}
                isDisabled={isRefreshing || isSending}
                onPick={(area) => void onPick(area)}
              />
            )}
            {isRecaptcha && <DialogContentText>{t('ask.recaptcha.help')}</DialogContentText>}
            {!isRecaptcha && multiStepPicture && (
              <AskPicture base64={multiStepPicture} alt={t('ask.picture.question')} />
            )}
            {!isRecaptcha && elementPicture && elementPicture !== multiStepPicture && (
              <AskPicture base64={elementPicture} alt={t('ask.picture.element')} />
            )}
          </Stack>
          {(isRefreshing || isSending) && <LinearProgress sx={{ mt: 2 }} aria-label={t('app.loading')} />}
          {isSignInMissing && (
            <Alert severity="info" sx={{ mt: 1 }}>
              {t('extractor.investor.sign.in')}
            </Alert>
          )}
          {isInvestor && !isSignInMissing && (
            <InvestorList
              investors={investors}
              value={value || null}
              onChange={(portfolioid) => {
                setValue(portfolioid);
                setIsRequiredShown(false);
              }}
              error={isRequiredShown ? t('error.required') : undefined}
              autoFocus
            />
          )}
          {!isRecaptcha &&
            !isInvestor &&
            (SECRET_ASK_TYPES.includes(ask.type) ? (
              <PasswordField {...fieldProps} />
            ) : (
              <TextField {...fieldProps} />
            ))}
          {!isRecaptcha && !isSignInMissing && (
            <FormControlLabel
              control={
                <Checkbox checked={isSaved} onChange={(event) => onSaveChange(event.target.checked)} />
              }
              label={t('ask.save.next.time')}
            />
          )}
          {isUnsavedWarningShown && <Alert severity="warning">{t('extractor.ask.save.unsaved')}</Alert>}
          {error && (
            <Alert severity="error" sx={{ mt: 1 }}>
              {error}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button
            onClick={() => void send({ textValue: ASK_CANCELED, saveOptionsFlag: false })}
            disabled={isSending}
          >
            {t('ask.cancel')}
          </Button>
          {!isSignInMissing && (
            <Button type="submit" variant="contained" disabled={isCoolingDown || isSending || isRefreshing}>
              {t('ask.confirm')}
            </Button>
          )}
        </DialogActions>
      </Box>
    </Dialog>
  );
}
