import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  LinearProgress,
  Stack,
  Typography,
  type ChipProps,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  bulkRunProgress,
  type BulkRunItemView,
  type BulkRunStatus,
  type BulkRunView,
} from '@pagewright/shared';
import { PageHeading } from '../../../components/page-heading';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { cancelBulkRun, retryFailedRows, retryRow } from '../api/change-bulk-run';
import { bulkRunQueryKey, useBulkRun } from '../api/get-bulk-run';
import { bulkRunItemsQueryKey, useBulkRunItems, type BulkRunItemFilter } from '../api/list-bulk-run-items';
import { BulkRunItemsTable } from './bulk-run-items-table';

const STATUS_COLORS: Record<BulkRunStatus, ChipProps['color']> = {
  RUNNING: 'primary',
  FINISHED: 'success',
  CANCELLED: 'default',
};

/** "N of M done · x succeeded · y failed" (and the cancelled rows, when there are any). */
export function BulkRunProgress({ bulkRun }: { bulkRun: BulkRunView }) {
  const { t } = useTranslation();
  const { counts, total } = bulkRun;
  const percent = Math.round(bulkRunProgress(bulkRun) * 100);
  const text = [
    t('bulk.runs.progress', {
      done: total - counts.pending - counts.running,
      total,
      success: counts.success,
      failed: counts.error + counts.stopped,
    }),
    counts.cancelled > 0 ? t('bulk.runs.progress.cancelled', { cancelled: counts.cancelled }) : null,
  ]
    .filter((part) => part !== null)
    .join(' · ');
  return (
    <Box>
      <LinearProgress
        variant="determinate"
        value={percent}
        aria-label={t('bulk.runs.progress.label')}
        sx={{ height: 8, borderRadius: 1 }}
      />
      <Typography variant="body2" sx={{ mt: 1 }} data-testid="bulk-run-progress">
        {text}
      </Typography>
    </Box>
  );
}

export interface BulkRunPageProps {
  bulkRunId: string;
  /** Opens the results of a row's run (the runs feature shows them; the route passes this). */
  onShowResults: (run: { runId: string; name: string }) => void;
}

/**
 * A bulk run's page (/bulk-runs/:bulkRunId, issue 26, item 4): its extractor, source and status, a
 * progress bar read again every 2 s while it runs, Cancel while it runs, Retry for the failed rows
 * (all of them or one by one), and the results table.
 */
export function BulkRunPage({ bulkRunId, onShowResults }: BulkRunPageProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const bulkRun = useBulkRun(bulkRunId);
  const data = bulkRun.data;
  const isRunning = data?.status === 'RUNNING';
  const [filter, setFilter] = useState<BulkRunItemFilter>('all');
  const items = useBulkRunItems(bulkRunId, filter, isRunning);
  const [isChanging, setIsChanging] = useState(false);
  const [retryingPosition, setRetryingPosition] = useState<number | null>(null);

  // The table is polled only while the bulk run goes: once it ends, the rows are read once more
  // so the last ones to finish do not stay "Running".
  const seenStatus = useRef(data?.status);
  useEffect(() => {
    if (seenStatus.current !== undefined && seenStatus.current !== data?.status)
      void queryClient.invalidateQueries({ queryKey: bulkRunItemsQueryKey(bulkRunId) });
    seenStatus.current = data?.status;
  }, [data?.status, bulkRunId, queryClient]);

  const change = async (call: () => Promise<BulkRunView>) => {
    try {
      queryClient.setQueryData(bulkRunQueryKey(bulkRunId), await call());
      await queryClient.invalidateQueries({ queryKey: bulkRunItemsQueryKey(bulkRunId) });
    } catch (error) {
      toast.error(errorText(error));
    }
  };
  const changeAll = async (call: () => Promise<BulkRunView>) => {
    setIsChanging(true);
    await change(call);
    setIsChanging(false);
  };
  const retry = async (item: BulkRunItemView) => {
    setRetryingPosition(item.position);
    await change(() => retryRow(bulkRunId, item.position));
    setRetryingPosition(null);
  };

  if (bulkRun.isPending)
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
        <CircularProgress aria-label={t('app.loading')} />
      </Box>
    );
  if (bulkRun.isError || !data) return <Alert severity="error">{errorText(bulkRun.error)}</Alert>;

  const failed = data.counts.error + data.counts.stopped;
  const rows = items.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Box data-testid="bulk-run-page">
      <PageHeading>{t('bulk.runs.page.title', { name: data.extractorName })}</PageHeading>
      <Card>
        <CardContent>
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
            <Typography>{t('bulk.runs.page.source', { source: data.sourceName })}</Typography>
            <Chip
              size="small"
              color={STATUS_COLORS[data.status]}
              label={t(`bulk.runs.status.${data.status}`)}
              data-testid="bulk-run-status"
            />
            <Box sx={{ flex: 1 }} />
            {isRunning && (
              <Button
                color="error"
                disabled={isChanging}
                onClick={() => void changeAll(() => cancelBulkRun(bulkRunId))}
              >
                {t('bulk.runs.cancel')}
              </Button>
            )}
            {failed > 0 && (
              <Button
                variant="outlined"
                disabled={isChanging}
                onClick={() => void changeAll(() => retryFailedRows(bulkRunId))}
              >
                {t('bulk.runs.retry.failed')}
              </Button>
            )}
          </Stack>
          <BulkRunProgress bulkRun={data} />
        </CardContent>
      </Card>
      <Card sx={{ mt: 2 }}>
        <CardContent>
          {items.isError && <Alert severity="error">{errorText(items.error)}</Alert>}
          {items.isPending ? (
            <CircularProgress size={24} aria-label={t('app.loading')} />
          ) : (
            <BulkRunItemsTable
              items={rows}
              filter={filter}
              onFilter={setFilter}
              hasMore={items.hasNextPage}
              isLoadingMore={items.isFetchingNextPage}
              onLoadMore={() => void items.fetchNextPage()}
              retryingPosition={retryingPosition}
              onRetry={(item) => void retry(item)}
              onShowResults={(item) => {
                if (item.runId === null) return;
                const name = t('bulk.runs.item.results.title', {
                  name: data.extractorName,
                  position: item.position,
                });
                onShowResults({ runId: item.runId, name });
              }}
            />
          )}
        </CardContent>
      </Card>
    </Box>
  );
}
