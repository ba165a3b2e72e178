import { useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import {
  API_KEY_EXPIRY_MAX_DAYS,
  API_KEY_SCOPES,
  createApiKeyRequestSchema,
  type ApiKey,
  type ApiKeyScope,
  type CreatedApiKey,
} from '@pagewright/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useCreateApiKey } from '../api/create-api-key';
import { useApiKeys } from '../api/list-api-keys';
import { useRevokeApiKey } from '../api/revoke-api-key';

const when = (iso: string | null, never: string) => (iso ? new Date(iso).toLocaleString() : never);

/** Name, scope and an optional expiry in days; the created key goes to `onCreated`. */
function CreateKeyForm({ onCreated }: { onCreated: (created: CreatedApiKey) => void }) {
  const { t } = useTranslation();
  const create = useCreateApiKey();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiKeyScope>('READ');
  const [days, setDays] = useState('');

  const request = {
    name,
    scope,
    ...(days.trim() === '' ? {} : { expiresInDays: Number(days) }),
  };
  const check = createApiKeyRequestSchema.safeParse(request);
  const problem = (field: string) =>
    check.success ? undefined : check.error.issues.find((issue) => issue.path[0] === field)?.message;
  const daysProblem = days.trim() === '' ? undefined : problem('expiresInDays');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!check.success) return;
    create.mutate(check.data, {
      onSuccess: (created) => {
        setName('');
        setDays('');
        onCreated(created);
      },
    });
  };

  return (
    <Box component="form" onSubmit={submit} noValidate>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'flex-start' } }}>
        <TextField
          label={t('apikeys.name')}
          value={name}
          onChange={(event) => setName(event.target.value)}
          slotProps={{ htmlInput: { maxLength: 128 } }}
          size="small"
        />
        <TextField
          select
          label={t('apikeys.scope')}
          value={scope}
          onChange={(event) => setScope(event.target.value as ApiKeyScope)}
          size="small"
          sx={{ minWidth: 160 }}
        >
          {API_KEY_SCOPES.map((value) => (
            <MenuItem key={value} value={value}>
              {t(`apikeys.scope.${value}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label={t('apikeys.expiry.days')}
          type="number"
          value={days}
          onChange={(event) => setDays(event.target.value.replace(/\D/g, ''))}
          error={daysProblem !== undefined}
          helperText={daysProblem ?? t('apikeys.expiry.help')}
          slotProps={{ htmlInput: { min: 1, max: API_KEY_EXPIRY_MAX_DAYS } }}
          size="small"
        />
        <Button type="submit" variant="contained" disabled={!check.success || create.isPending}>
          {t('apikeys.create')}
        </Button>
      </Stack>
      {create.isError && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {errorText(create.error)}
        </Alert>
      )}
    </Box>
  );
}

/** The new key, this once, with a copy button. */
function CreatedKeyDialog({ created, onClose }: { created: CreatedApiKey; onClose: () => void }) {
  const { t } = useTranslation();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      toast.success(t('apikeys.copied'));
    } catch (error) {
      toast.error(errorText(error));
    }
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby="created-key-title" maxWidth="sm" fullWidth>
      <DialogTitle id="created-key-title">{t('apikeys.created.title')}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('apikeys.created.warning')}
        </Alert>
        <TextField
          value={created.key}
          label={created.name}
          fullWidth
          slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'created-api-key' } }}
          onFocus={(event) => event.target.select()}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void copy()}>{t('apikeys.copy')}</Button>
        <Button onClick={onClose} variant="contained">
          {t('apikeys.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function stateOf(key: ApiKey): 'revoked' | 'expired' | 'active' {
  if (key.revoked) return 'revoked';
  return key.expired ? 'expired' : 'active';
}

/** Settings' API keys card (issue 26): create, the new key shown once, the list, revoke. */
export function ApiKeysCard() {
  const { t } = useTranslation();
  const keys = useApiKeys();
  const revoke = useRevokeApiKey();
  const [created, setCreated] = useState<CreatedApiKey>();
  const [revoking, setRevoking] = useState<ApiKey>();
  const never = t('apikeys.never');

  return (
    <Card data-testid="api-keys">
      <CardHeader title={t('apikeys.title')} slotProps={{ title: { variant: 'h6', component: 'h2' } }} />
      <CardContent sx={{ pt: 0 }}>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('apikeys.intro')}
        </Typography>
        <CreateKeyForm onCreated={setCreated} />
        <Box sx={{ mt: 3, overflowX: 'auto' }}>
          {keys.isPending && <CircularProgress size={24} />}
          {keys.isError && <Alert severity="error">{errorText(keys.error)}</Alert>}
          {keys.data?.length === 0 && <Typography color="text.secondary">{t('apikeys.empty')}</Typography>}
          {keys.data && keys.data.length > 0 && (
            <Table size="small" aria-label={t('apikeys.title')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('apikeys.column.name')}</TableCell>
                  <TableCell>{t('apikeys.column.key')}</TableCell>
                  <TableCell>{t('apikeys.column.scope')}</TableCell>
                  <TableCell>{t('apikeys.column.created')}</TableCell>
                  <TableCell>{t('apikeys.column.last.used')}</TableCell>
                  <TableCell>{t('apikeys.column.expires')}</TableCell>
                  <TableCell>{t('apikeys.column.state')}</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {keys.data.map((key) => {
                  const state = stateOf(key);
                  return (
                    <TableRow key={key.id}>
                      <TableCell>{key.name}</TableCell>
                      <TableCell sx={{ fontFamily: 'monospace' }}>{`${key.prefix}…`}</TableCell>
                      <TableCell>{t(`apikeys.scope.${key.scope}`)}</TableCell>
                      <TableCell>{when(key.createdAt, never)}</TableCell>
                      <TableCell>{when(key.lastUsedAt, never)}</TableCell>
                      <TableCell>{when(key.expiresAt, never)}</TableCell>
                      <TableCell>{t(`apikeys.state.${state}`)}</TableCell>
                      <TableCell align="right">
                        {state !== 'revoked' && (
                          <Button
                            color="error"
                            size="small"
                            aria-label={t('apikeys.revoke.label', { name: key.name })}
                            onClick={() => setRevoking(key)}
                          >
                            {t('apikeys.revoke')}
                          </Button>
                        )}
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          )}
        </Box>
      </CardContent>
      {created && <CreatedKeyDialog created={created} onClose={() => setCreated(undefined)} />}
      {revoking && (
        <ConfirmDialog
          title={t('apikeys.revoke.title', { name: revoking.name })}
          text={t('apikeys.revoke.text')}
          confirmLabel={t('apikeys.revoke')}
          isDestructive
          isBusy={revoke.isPending}
          onConfirm={() => revoke.mutate(revoking.id, { onSettled: () => setRevoking(undefined) })}
          onClose={() => setRevoking(undefined)}
        />
      )}
    </Card>
  );
}
