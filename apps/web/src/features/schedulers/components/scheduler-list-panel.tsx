import { useState } from 'react';
import { Stack, Typography } from '@mui/material';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import {
  DASHBOARD_PANELS,
  MESSAGES,
  renameSchedulerRequestSchema,
  type SchedulerDto,
} from '@pagewright/shared';
import { ItemListCard } from '../../../components/item-list-card';
import { ItemListRow } from '../../../components/item-list-row';
import { useNamedItemDialogs } from '../../../components/named-item-dialogs';
import { RunStatusChip } from '../../../components/run-status-chip';
import { errorText } from '../../../lib/api-client';
import { useLiveEvents } from '../../../lib/live-events';
import { PATHS } from '../../../lib/paths';
import { deleteScheduler } from '../api/delete-scheduler';
import { schedulerListQueryKey, useSchedulerList } from '../api/list-schedulers';
import { renameScheduler } from '../api/rename-scheduler';
import { dateTimeText, frequencyText } from '../frequency-text';
import { schedulerWizardLocation } from '../wizard-location';
import { SchedulerFiringsDialog } from './scheduler-firings-dialog';

const TITLE = DASHBOARD_PANELS.find((panel) => panel.id === 'scheduler')?.title ?? 'Scheduler';

/**
 * The row's description is one clipped line; the summary under it wraps instead (white-space
 * normal), so the last run's time is never cut off on a narrow card.
 */
const WRAPS = { display: 'block', whiteSpace: 'normal' } as const;

/** Frequency, next run and the last run's state under a scheduler's description. */
function SchedulerSummary({ scheduler }: { scheduler: SchedulerDto }) {
  const { t } = useTranslation();
  const { lastRun } = scheduler;
  return (
    <>
      <Typography variant="caption" component="span" sx={WRAPS} data-testid="scheduler-frequency">
        {frequencyText(scheduler, t)}
      </Typography>
      <Typography variant="caption" component="span" sx={WRAPS} data-testid="scheduler-next-run">
        {scheduler.nextRunAt
          ? t('schedulers.next.run', { time: dateTimeText(scheduler.nextRunAt, scheduler.timeZone) })
          : t('schedulers.next.run.none')}
      </Typography>
      {lastRun ? (
        // Wraps rather than clips: a long extractor name must not push the time out of the card.
        <Stack
          direction="row"
          useFlexGap
          component="span"
          sx={{
            alignItems: 'center',
            flexWrap: 'wrap',
            columnGap: 1,
            rowGap: 0.5,
            whiteSpace: 'normal',
            mt: 0.5,
            minWidth: 0,
          }}
          data-testid="scheduler-last-run"
        >
          <Typography variant="caption" component="span" sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {t('schedulers.last.run', { name: lastRun.extractorName })}
          </Typography>
          <RunStatusChip status={lastRun.status} component="span" />
          <Typography
            variant="caption"
            component="time"
            dateTime={lastRun.startedAt}
            sx={{ whiteSpace: 'nowrap' }}
          >
            {dateTimeText(lastRun.startedAt, scheduler.timeZone)}
          </Typography>
        </Stack>
      ) : (
        <Typography variant="caption" component="span" sx={WRAPS} data-testid="scheduler-last-run">
          {t('schedulers.never.run')}
        </Typography>
      )}
    </>
  );
}

/**
 * The Scheduler panel of the dashboard (shown when the showScheduler setting is on): the caller's
 * schedulers with their frequency, next run and last run, reloaded every `refreshIntervalMs` and
 * whenever a run changes state; Add, Edit (the wizard with the saved values), Rename, Delete and
 * the runs its firings started or skipped.
 */
export function SchedulerListPanel({
  refreshIntervalMs,
  onShowWebhooks,
}: {
  refreshIntervalMs: number;
  /** Opens a scheduler's webhooks (called for the runs it starts); offered only when given. */
  onShowWebhooks?: (scheduler: SchedulerDto) => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useSchedulerList(refreshIntervalMs);
  const [shownFirings, setShownFirings] = useState<SchedulerDto | null>(null);
  const items = useNamedItemDialogs<SchedulerDto>({
    listQueryKey: schedulerListQueryKey,
    renameTitle: t('schedulers.rename'),
    renameSchema: renameSchedulerRequestSchema,
    uniqueText: MESSAGES['scheduler.list.error.unique'],
    rename: renameScheduler,
    deleteTitle: t('schedulers.delete.title'),
    deleteText: (item) => t('schedulers.delete.text', { name: item.name }),
    remove: deleteScheduler,
  });

  // A scheduled run starting or ending changes a row's last run.
  useLiveEvents(['run-status'], () => void items.reload());

  const edit = (item: SchedulerDto) => {
    const location = schedulerWizardLocation({
      schedulerId: item.id,
      name: item.name,
      description: item.description,
    });
    navigate(location.to, { state: location.state });
  };

  const rows = list.data ?? [];
  return (
    <>
      <ItemListCard
        panelId="scheduler"
        title={TITLE}
        addLabel={t('schedulers.add')}
        onAdd={() => void navigate(PATHS.schedulerNew)}
        isPending={list.isPending}
        errorText={list.isError ? errorText(list.error) : null}
        isEmpty={rows.length === 0}
      >
        {rows.map((item) => (
          <ItemListRow
            key={item.id}
            id={item.id}
            name={item.name}
            description={item.description}
            extra={<SchedulerSummary scheduler={item} />}
            menu={[
              { label: t('extractors.edit'), onClick: () => edit(item) },
              { label: t('extractors.rename'), onClick: () => items.openRename(item) },
              { label: t('schedulers.runs'), onClick: () => setShownFirings(item) },
              ...(onShowWebhooks ? [{ label: t('webhooks.menu'), onClick: () => onShowWebhooks(item) }] : []),
            ]}
            onEdit={() => edit(item)}
            onDelete={() => items.openDelete(item)}
          />
        ))}
      </ItemListCard>
      {items.dialogs}
      {shownFirings && (
        <SchedulerFiringsDialog scheduler={shownFirings} onClose={() => setShownFirings(null)} />
      )}
    </>
  );
}
