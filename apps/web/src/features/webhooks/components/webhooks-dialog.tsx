import { useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  FormControlLabel,
  FormGroup,
  IconButton,
  Stack,
  Switch,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import ContentCopy from '@mui/icons-material/ContentCopy';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  MESSAGES,
  WEBHOOK_EVENTS,
  isWebhookUrl,
  type CreatedWebhookEndpoint,
  type WebhookEndpointView,
  type WebhookEvent,
} from '@pagewright/shared';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { changeAlertQueryKey, setChangeAlert, useChangeAlert } from '../api/change-alert';
import { createWebhook } from '../api/create-webhook';
import { deleteWebhook } from '../api/delete-webhook';
import { useWebhooks, webhooksQueryKey } from '../api/list-webhooks';
import { sendWebhookTest } from '../api/send-webhook-test';
import { updateWebhook } from '../api/update-webhook';
import type { WebhookOwner } from '../api/webhook-owner';
import { WebhookDeliveries } from './webhook-deliveries';

/** The secret of the endpoint just added, shown this once with a copy button. */
function NewSecret({ created, onDone }: { created: CreatedWebhookEndpoint; onDone: () => void }) {
  const { t } = useTranslation();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.secret);
      toast.success(t('webhooks.secret.copied'));
    } catch {
      toast.error(t('webhooks.secret.copy.failed'));
    }
  };
  return (
    <Alert severity="warning" onClose={onDone} data-testid="webhook-secret">
      <Typography variant="body2">{t('webhooks.secret.once')}</Typography>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 1 }}>
        <Box
          component="code"
          aria-label={t('webhooks.secret')}
          sx={{ fontFamily: 'monospace', wordBreak: 'break-all', userSelect: 'all' }}
        >
          {created.secret}
        </Box>
        <Tooltip title={t('webhooks.secret.copy')}>
          <IconButton aria-label={t('webhooks.secret.copy')} onClick={() => void copy()} size="small">
            <ContentCopy fontSize="small" />
          </IconButton>
        </Tooltip>
      </Stack>
    </Alert>
  );
}

function EndpointItem({
  endpoint,
  onChanged,
}: {
  endpoint: WebhookEndpointView;
  onChanged: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const [isLogShown, setIsLogShown] = useState(false);
  const act = async (action: () => Promise<unknown>, success?: string) => {
    try {
      await action();
      if (success) toast.success(success);
      await onChanged();
    } catch (error) {
      toast.error(errorText(error));
    }
  };
  return (
    <Box data-testid={`webhook-${endpoint.id}`} sx={{ py: 1 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography
          variant="body2"
          sx={{ fontFamily: 'monospace', wordBreak: 'break-all', flex: 1, minWidth: 0 }}
        >
          {endpoint.url}
        </Typography>
        <FormControlLabel
          control={
            <Switch
              size="small"
              checked={endpoint.enabled}
              onChange={(event) =>
                void act(() => updateWebhook(endpoint.id, { enabled: event.target.checked }))
              }
            />
          }
          label={t('webhooks.enabled')}
        />
      </Stack>
      <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap', my: 0.5 }}>
        {endpoint.events.map((event) => (
          <Chip key={event} size="small" variant="outlined" label={t(`webhooks.event.${event}`)} />
        ))}
      </Stack>
      <Stack direction="row" spacing={1}>
        <Button size="small" onClick={() => setIsLogShown((shown) => !shown)} aria-expanded={isLogShown}>
          {isLogShown ? t('webhooks.deliveries.hide') : t('webhooks.deliveries')}
        </Button>
        <Button
          size="small"
          onClick={() => void act(() => sendWebhookTest(endpoint.id), t('webhook.test.sent'))}
        >
          {t('webhooks.test')}
        </Button>
        <Button
          size="small"
          color="error"
          onClick={() => void act(() => deleteWebhook(endpoint.id), t('webhook.deleted'))}
        >
          {t('webhooks.delete')}
        </Button>
      </Stack>
      {isLogShown && (
        <Box sx={{ mt: 1 }}>
          <WebhookDeliveries endpointId={endpoint.id} />
        </Box>
      )}
    </Box>
  );
}

/** "Alert me by e-mail when the data changes" (an extractor's change alert; DATA_CHANGED is its webhook half). */
function ChangeAlertSwitch({ extractorId }: { extractorId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const alert = useChangeAlert(extractorId, true);
  const change = async (email: boolean) => {
    try {
      queryClient.setQueryData(
        changeAlertQueryKey(extractorId),
        await setChangeAlert(extractorId, { email }),
      );
    } catch (error) {
      toast.error(errorText(error));
    }
  };
  return (
    <Box sx={{ mb: 1 }}>
      <FormControlLabel
        control={
          <Checkbox
            checked={alert.data?.email ?? false}
            disabled={!alert.isSuccess}
            onChange={(event) => void change(event.target.checked)}
          />
        }
        label={t('webhooks.change.alert')}
      />
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
        {t('webhooks.change.alert.help')}
      </Typography>
    </Box>
  );
}

/**
 * The Webhooks dialog of an extractor or a scheduler (issue 26): its endpoints, each with its
 * delivery log and a Redeliver button; Add takes a URL and events and shows the secret once.
 */
export function WebhooksDialog({ owner, onClose }: { owner: WebhookOwner; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const webhooks = useWebhooks(owner);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<ReadonlySet<WebhookEvent>>(new Set(['RUN_FINISHED']));
  const [problem, setProblem] = useState<{ field: 'url' | 'events'; text: string } | null>(null);
  const [created, setCreated] = useState<CreatedWebhookEndpoint | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const reload = () => queryClient.invalidateQueries({ queryKey: webhooksQueryKey(owner) });

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!isWebhookUrl(url.trim())) return setProblem({ field: 'url', text: MESSAGES['webhook.url.invalid'] });
    if (events.size === 0) return setProblem({ field: 'events', text: MESSAGES['webhook.events.required'] });
    setProblem(null);
    setIsSaving(true);
    try {
      setCreated(await createWebhook(owner, { url: url.trim(), events: [...events] }));
      setUrl('');
      await reload();
    } catch (error) {
      toast.error(errorText(error));
    } finally {
      setIsSaving(false);
    }
  };
  const toggle = (event: WebhookEvent, isChecked: boolean) => {
    const next = new Set(events);
    if (isChecked) next.add(event);
    else next.delete(event);
    setEvents(next);
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="webhooks-title">
      <DialogTitle id="webhooks-title">{t('webhooks.title', { name: owner.name })}</DialogTitle>
      <DialogContent>
        {owner.kind === 'extractor' && <ChangeAlertSwitch extractorId={owner.id} />}
        {created && <NewSecret created={created} onDone={() => setCreated(null)} />}
        {webhooks.isPending && <CircularProgress size={24} aria-label={t('app.loading')} />}
        {webhooks.isError && <Alert severity="error">{errorText(webhooks.error)}</Alert>}
        {webhooks.data?.endpoints.length === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ my: 1 }}>
            {t('webhooks.empty')}
          </Typography>
        )}
        {webhooks.data?.endpoints.map((endpoint) => (
          <Box key={endpoint.id}>
            <EndpointItem endpoint={endpoint} onChanged={reload} />
            <Divider />
          </Box>
        ))}
        <Box component="form" noValidate onSubmit={(event) => void add(event)} sx={{ mt: 2 }}>
          <Typography variant="subtitle2">{t('webhooks.add.title')}</Typography>
          <TextField
            label={t('webhooks.url')}
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            placeholder={t('webhooks.url.placeholder')}
            fullWidth
            size="small"
            margin="dense"
            error={problem?.field === 'url'}
            helperText={problem?.field === 'url' ? problem.text : t('webhooks.url.help')}
          />
          <FormGroup row aria-label={t('webhooks.events')}>
            {WEBHOOK_EVENTS.map((event) => (
              <FormControlLabel
                key={event}
                control={
                  <Checkbox
                    size="small"
                    checked={events.has(event)}
                    onChange={(change) => toggle(event, change.target.checked)}
                  />
                }
                label={t(`webhooks.event.${event}`)}
              />
            ))}
          </FormGroup>
          {problem?.field === 'events' && (
            <Typography variant="caption" color="error">
              {problem.text}
            </Typography>
          )}
          <Box>
            <Button type="submit" variant="contained" size="small" disabled={isSaving} sx={{ mt: 1 }}>
              {t('webhooks.add')}
            </Button>
          </Box>
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('dialog.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
