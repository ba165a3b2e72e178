import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  CircularProgress,
  List,
  Typography,
} from '@mui/material';
import Add from '@mui/icons-material/Add';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import {
  DASHBOARD_PANELS,
  automationErrorText,
  MESSAGES,
  PENDING_ASK_CHECK_DELAY_MS,
  type ExtractorListItem,
  type RunInputValues,
  type RunStatus,
} from '@pagewright/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ApiError, errorText, isApiError } from '../../../lib/api-client';
import { extractorListQueryKey, useExtractorList } from '../../../lib/extractor-list';
import { useLiveEvents } from '../../../lib/live-events';
import { requestPendingAskCheck } from '../../../lib/pending-ask-check';
import { toast } from '../../../lib/toast';
import { copyExtractor } from '../api/copy-extractor';
import { deleteExtractor } from '../api/delete-extractor';
import { executeExtractor } from '../api/execute-extractor';
import { renameExtractor } from '../api/rename-extractor';
import { startExtractor } from '../api/start-extractor';
import { queueRunErrorNotice } from '../hooks/run-error-notices';
import type { ItemFields } from '../item-rules';
import { builderLocation, type ListKind } from '../list-kinds';
import { ExtractorRow, type RowActions } from './extractor-row';
import { ItemDialog } from './item-dialog';
import { RunInputsDialog } from './run-inputs-dialog';

/**
 * A status shown in place of the server's until the server's changes: EXECUTING while Execute is
 * on its way, ERROR after Execute failed (spec §4: the row is marked locally).
 */
interface LocalStatus {
  status: RunStatus;
  whileServerStatus: RunStatus | null;
}

type OpenDialog =
  | { kind: 'create' }
  | { kind: 'rename'; item: ExtractorListItem }
  | { kind: 'delete'; item: ExtractorListItem }
  /** Execute of an item with inputs asks their values first. */
  | { kind: 'inputs'; item: ExtractorListItem }
  | null;

/** Hook for the first load: the insertor and navigator lists wait a little (spec §9). */
function useFirstLoadDelay(delayMs: number): boolean {
  const [isDue, setIsDue] = useState(delayMs === 0);
  useEffect(() => {
    if (delayMs === 0) return undefined;
    const timer = window.setTimeout(() => setIsDue(true), delayMs);
    return () => window.clearTimeout(timer);
  }, [delayMs]);
  return isDue;
}

/**
 * The Extractors, Insertors or Navigators panel of the dashboard: the caller's items of one type,
 * reloaded every `refreshIntervalMs` while on screen (and at once when a run changes status), with
 * Add, Edit, Execute, Copy, Rename and Delete. A pending-ask check follows each load by 1 s.
 */
export function ExtractorListPanel({
  kind,
  refreshIntervalMs,
  onShowResults,
  onShowWebhooks,
  onBulkRun,
}: {
  kind: ListKind;
  refreshIntervalMs: number;
  /** Opens an item's bulk-run dialog; rows offer it only when this is given. */
  onBulkRun?: (item: ExtractorListItem) => void;
  /** Opens an item's webhooks; rows offer them only when this is given. */
  onShowWebhooks?: (item: ExtractorListItem) => void;
  /** Opens the results of an item's last run; rows offer them only when this is given. */
  onShowResults?: (item: ExtractorListItem) => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const queryKey = extractorListQueryKey(kind.extractorType);
  const isDue = useFirstLoadDelay(kind.firstLoadDelayMs);
  const list = useExtractorList(kind.extractorType, { refreshIntervalMs, isEnabled: isDue });
  const [localStatuses, setLocalStatuses] = useState<ReadonlyMap<string, LocalStatus>>(new Map());
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [isDeleting, setIsDeleting] = useState(false);
  const title = DASHBOARD_PANELS.find((panel) => panel.id === kind.panelId)?.title ?? kind.panelId;

  const rows = useMemo(
    () =>
      (list.data ?? []).map((row) => {
        const local = localStatuses.get(row.id);
        return local && local.whileServerStatus === row.status ? { ...row, status: local.status } : row;
      }),
    [list.data, localStatuses],
  );

  // A local status ends as soon as the server reports a different one (adjusted while rendering,
  // so a stale one never shows for a frame).
  const [prunedFor, setPrunedFor] = useState(list.data);
  if (list.data !== prunedFor) {
    setPrunedFor(list.data);
    const loaded = list.data ?? [];
    const kept = new Map(
      [...localStatuses].filter(([id, local]) =>
        loaded.some((row) => row.id === id && row.status === local.whileServerStatus),
      ),
    );
    if (kept.size !== localStatuses.size) setLocalStatuses(kept);
  }

  // Each load is followed by a pending-ask check 1 s later (spec §4 "Dashboard polling").
  useEffect(() => {
    if (list.dataUpdatedAt === 0) return undefined;
    const timer = window.setTimeout(
      () => requestPendingAskCheck(kind.extractorType),
      PENDING_ASK_CHECK_DELAY_MS,
    );
    return () => window.clearTimeout(timer);
  }, [list.dataUpdatedAt, kind.extractorType]);

  // A row in ERROR shows its first unseen error bottom-left, once.
  useEffect(() => {
    for (const row of list.data ?? []) {
      const first = row.errorMessages[0];
      if (row.status === 'ERROR' && first) {
        queueRunErrorNotice({
          key: first.id,
          extractorId: row.id,
          name: row.name,
          text: automationErrorText(first.errorCode, first.errorMessage),
        });
      }
    }
  }, [list.data]);

  useLiveEvents(['run-status'], (event) => {
    if (list.data?.some((row) => row.id === event.extractorId))
      void queryClient.invalidateQueries({ queryKey });
  });

  const setLocalStatus = (item: ExtractorListItem, status: RunStatus | null) =>
    setLocalStatuses((current) => {
      const next = new Map(current);
      const server = list.data?.find((row) => row.id === item.id)?.status ?? null;
      if (status === null) next.delete(item.id);
      else next.set(item.id, { status, whileServerStatus: server });
      return next;
    });

  const reload = () => queryClient.invalidateQueries({ queryKey });

  const execute = async (item: ExtractorListItem, inputs?: RunInputValues) => {
    setLocalStatus(item, 'EXECUTING');
    try {
      const started = await executeExtractor(item.id, inputs);
      // Queued with no worker to take it: say so instead of a row that pulses for nothing.
      if (started.waitingForWorker) toast.warning(t('run.waiting.for.worker'));
      // The server has the run now: show its EXECUTING without waiting for the next load.
      queryClient.setQueryData<ExtractorListItem[]>(queryKey, (current) =>
        current?.map((row) => (row.id === item.id ? { ...row, status: 'EXECUTING' } : row)),
      );
      setLocalStatus(item, null);
      void reload();
    } catch (error) {
      if (isApiError(error, 409) && error.message === MESSAGES['extractor.pending.ask']) {
        // Blocked: the row keeps its status and the waiting question is offered again.
        setLocalStatus(item, null);
        toast.warning(t('extractor.pending.ask'));
        requestPendingAskCheck(kind.extractorType);
        return;
      }
      if (isApiError(error, 409)) {
        setLocalStatus(item, null);
        toast.warning(errorText(error));
        void reload();
        return;
      }
      setLocalStatus(item, 'ERROR');
      toast.error(
        error instanceof ApiError && error.hasServerMessage ? error.message : t('extractor.execute.error'),
      );
    }
  };

  const copy = async (item: ExtractorListItem) => {
    try {
      const created = await copyExtractor(item.id);
      toast.success(t('extractors.copied', { name: created.name }));
      await reload();
    } catch (error) {
      toast.error(errorText(error));
    }
  };

  const actions: RowActions = {
    onExecute: (item) => (item.inputs.length > 0 ? setDialog({ kind: 'inputs', item }) : void execute(item)),
    onCopy: (item) => void copy(item),
    onRename: (item) => setDialog({ kind: 'rename', item }),
    onEdit: (item) => {
      const location = builderLocation(kind, item);
      navigate(location.to, { state: location.state });
    },
    onDelete: (item) => setDialog({ kind: 'delete', item }),
    onShowResults,
    onShowWebhooks,
    onBulkRun,
  };

  const create = async (fields: ItemFields) => {
    const created = await startExtractor({
      name: fields.name,
      description: fields.description,
      extractorType: kind.extractorType,
      ...(kind.hasViewerEmail ? { viewerEmail: fields.viewerEmail } : {}),
    });
    setDialog(null);
    void reload();
    const location = builderLocation(kind, created);
    navigate(location.to, { state: location.state });
  };

  const rename = async (item: ExtractorListItem, fields: ItemFields) => {
    await renameExtractor({ id: item.id, name: fields.name, description: fields.description });
    setDialog(null);
    toast.success(t('extractors.renamed'));
    await reload();
  };

  const remove = async (item: ExtractorListItem) => {
    setIsDeleting(true);
    try {
      await deleteExtractor(item.id);
      toast.success(t(kind.labels.deleted));
      queryClient.setQueryData<ExtractorListItem[]>(queryKey, (current) =>
        current?.filter((row) => row.id !== item.id),
      );
    } catch (error) {
      toast.error(errorText(error));
    } finally {
      setIsDeleting(false);
      setDialog(null);
      void reload();
    }
  };

  return (
    <Card
      data-testid={`panel-${kind.panelId}`}
      sx={{ height: '100%', borderTop: 3, borderTopColor: 'primary.main' }}
    >
      <CardHeader
        title={title}
        slotProps={{ title: { variant: 'h6', component: 'h2' } }}
        action={
          <Button
            startIcon={<Add />}
            onClick={() => setDialog({ kind: 'create' })}
            aria-label={t(kind.labels.add)}
          >
            {t('extractors.add')}
          </Button>
        }
      />
      <CardContent sx={{ pt: 0 }}>
        {list.isError && (
          <Alert severity="error" sx={{ mb: 1 }}>
            {isApiError(list.error, 404) ? t('login.user.not.found') : t(kind.messages.get)}
          </Alert>
        )}
        {list.isPending && !list.isError ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 2 }}>
            <CircularProgress size={24} aria-label={t('app.loading')} />
          </Box>
        ) : rows.length === 0 ? (
          !list.isError && <Typography color="text.secondary">{t('dashboard.empty')}</Typography>
        ) : (
          <List dense disablePadding aria-label={title}>
            {rows.map((item) => (
              <ExtractorRow key={item.id} kind={kind} item={item} actions={actions} />
            ))}
          </List>
        )}
      </CardContent>
      {dialog?.kind === 'create' && (
        <ItemDialog kind={kind} mode="create" onSubmit={create} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'rename' && (
        <ItemDialog
          kind={kind}
          mode="rename"
          initial={{ name: dialog.item.name, description: dialog.item.description }}
          onSubmit={(fields) => rename(dialog.item, fields)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'inputs' && (
        <RunInputsDialog
          name={dialog.item.name}
          inputs={dialog.item.inputs}
          onSubmit={(values) => {
            setDialog(null);
            void execute(dialog.item, values);
          }}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          title={t(kind.labels.delete)}
          text={t('extractors.delete.text', { name: dialog.item.name })}
          confirmLabel={t('extractors.delete')}
          isDestructive
          isBusy={isDeleting}
          onConfirm={() => void remove(dialog.item)}
          onClose={() => setDialog(null)}
        />
      )}
    </Card>
  );
}
