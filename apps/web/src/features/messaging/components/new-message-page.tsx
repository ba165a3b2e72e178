import { useEffect, useRef, useState } from 'react';
import { Alert, Box, Button, Chip, LinearProgress, Paper, Stack, TextField } from '@mui/material';
import AttachFile from '@mui/icons-material/AttachFile';
import Cancel from '@mui/icons-material/Cancel';
import Send from '@mui/icons-material/Send';
import { useQueryClient } from '@tanstack/react-query';
import { Navigate, generatePath, useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import {
  FORM_PREFILL_DELAY_MS,
  MESSAGES,
  MESSAGE_BODY_MAX_ROWS,
  MESSAGE_BODY_MIN_ROWS,
  sendMessageRequestSchema,
} from '@pagewright/shared';
import { PageHeading } from '../../../components/page-heading';
import { isApiError } from '../../../lib/api-client';
import { fieldErrorsOf, hasErrors, type FieldErrors } from '../../../lib/form-errors';
import { PATHS } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { MESSAGE_LISTS_QUERY_KEY } from '../api/list-messages';
import { MESSAGE_THREAD_QUERY_KEY } from '../api/read-messages';
import { fileToBase64, sendMessage } from '../api/send-message';

type Field = 'to' | 'cc' | 'bcc' | 'subject' | 'body';
const FIELDS: readonly Field[] = ['to', 'cc', 'bcc', 'subject', 'body'];

/** What Reply All (or another screen) passes in the navigation state. */
interface Prefill {
  replyOf?: string;
  from?: string;
  subject?: string;
  to?: string;
  cc?: string;
}

function prefillOf(state: unknown): Prefill {
  if (typeof state !== 'object' || state === null) return {};
  const value = state as Record<string, unknown>;
  const text = (key: string) => (typeof value[key] === 'string' ? value[key] : undefined);
  return {
    replyOf: text('replyOf'),
    from: text('from'),
    subject: text('subject'),
    to: text('to'),
    cc: text('cc'),
  };
}

const EMPTY: Record<Field, string> = { to: '', cc: '', bcc: '', subject: '', body: '' };

/**
 * /messaging-new, "Write a new message" (data spec §2, §4, §5): To, Cc, Bcc, Subject, attached files
 * and the message, checked on Send with the spec's texts. Reply All opens it prefilled (after
 * 100 ms) with the message it answers; a link holder without an account writes from the link.
 */
export function NewMessagePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const { accessToken, username } = useSession();
  const [prefill] = useState(() => prefillOf(location.state));
  const [values, setValues] = useState(EMPTY);
  const [files, setFiles] = useState<File[]>([]);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [isSending, setIsSending] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const timer = window.setTimeout(
      () =>
        setValues((current) => ({
          ...current,
          to: prefill.to ?? current.to,
          cc: prefill.cc ?? current.cc,
          subject: prefill.subject ?? current.subject,
        })),
      FORM_PREFILL_DELAY_MS,
    );
    return () => window.clearTimeout(timer);
  }, [prefill]);

  // Without a session only a reply through an e-mailed link can be written here.
  if (accessToken === null && !(prefill.replyOf && prefill.from))
    return <Navigate to={PATHS.login} replace />;

  /** Back one page; opened without a page before it, the link's thread or the dashboard. */
  const goBack = () => {
    if (location.key !== 'default') {
      navigate(-1);
      return;
    }
    const isLinkReply = accessToken === null && prefill.from !== undefined;
    const path = isLinkReply
      ? generatePath(PATHS.messageByToken, { token: prefill.from ?? '' })
      : PATHS.dashboard;
    navigate(path, { replace: true });
  };

  const change = (field: Field) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const send = async () => {
    const found = fieldErrorsOf<Field>(sendMessageRequestSchema, values);
    setErrors(found);
    if (hasErrors(found)) return;
    setIsSending(true);
    try {
      const attachments = await Promise.all(
        files.map(async (file) => ({ name: file.name, content: await fileToBase64(file) })),
      );
      await sendMessage({
        ...values,
        replyOf: prefill.replyOf ?? null,
        from: prefill.from || username || '',
        attachments,
      });
      // Stays in the SPA (issue 23): the toast shows, and the lists and the thread read again
      // instead of a full reload of the page returned to (data spec §4).
      toast.success(MESSAGES['message.sent']);
      void queryClient.invalidateQueries({ queryKey: MESSAGE_LISTS_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: MESSAGE_THREAD_QUERY_KEY });
      goBack();
    } catch (error) {
      const field = isApiError(error) && error.field && (FIELDS as readonly string[]).includes(error.field);
      if (field && isApiError(error)) setErrors({ [error.field as Field]: error.message });
      toast.error(
        isApiError(error) && error.hasServerMessage ? error.message : MESSAGES['message.send.error'],
      );
      setIsSending(false);
    }
  };

  const line = (field: Field, label: string, isRequired = false) => (
    <TextField
      label={label}
      value={values[field]}
      onChange={change(field)}
      required={isRequired}
      error={errors[field] !== undefined}
      helperText={errors[field]}
      fullWidth
      margin="dense"
    />
  );

  return (
    <Box sx={{ maxWidth: 900, mx: 'auto' }}>
      <PageHeading>{t('page.messaging.new')}</PageHeading>
      <Paper
        variant="outlined"
        sx={{ p: 3 }}
        component="form"
        noValidate
        onSubmit={(event) => event.preventDefault()}
      >
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('messaging.recipients.info')}
        </Alert>
        {line('to', t('messaging.to'), true)}
        {line('cc', t('messaging.cc'))}
        {line('bcc', t('messaging.bcc'))}
        {line('subject', t('messaging.subject'), true)}
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center', my: 1 }}>
          <Button variant="outlined" startIcon={<AttachFile />} onClick={() => fileInput.current?.click()}>
            {t('messaging.attach')}
          </Button>
          <input
            ref={fileInput}
            type="file"
            multiple
            hidden
            data-testid="attach-files"
            onChange={(event) => {
              const chosen = [...(event.target.files ?? [])];
              setFiles((current) => [...current, ...chosen]);
              event.target.value = '';
            }}
          />
          {files.map((file, index) => (
            <Chip
              key={`${file.name}-${index}`}
              label={file.name}
              onDelete={() => setFiles((current) => current.filter((_, position) => position !== index))}
              deleteIcon={<Cancel titleAccess={t('messaging.remove.file', { name: file.name })} />}
            />
          ))}
        </Stack>
        <TextField
          label={t('messaging.body')}
          value={values.body}
          onChange={change('body')}
          required
          multiline
          minRows={MESSAGE_BODY_MIN_ROWS}
          maxRows={MESSAGE_BODY_MAX_ROWS}
          error={errors.body !== undefined}
          helperText={errors.body}
          fullWidth
          margin="dense"
        />
        {isSending && <LinearProgress aria-label={t('messaging.sending')} sx={{ my: 1 }} />}
        <Stack direction="row" spacing={1} sx={{ mt: 2, justifyContent: 'flex-end' }}>
          <Button onClick={() => void navigate(-1)} disabled={isSending}>
            {t('messaging.cancel')}
          </Button>
          <Button variant="contained" startIcon={<Send />} onClick={() => void send()} disabled={isSending}>
            {t('messaging.send')}
          </Button>
        </Stack>
      </Paper>
    </Box>
  );
}
