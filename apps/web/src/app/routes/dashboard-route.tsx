import { Suspense, lazy, useState } from 'react';
import { Alert, Box, Card, CardContent, CardHeader, CircularProgress } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { LIST_REFRESH_INTERVAL_MS, defaultUserSettings, type ExtractorListItem } from '@pagewright/shared';
import { DashboardGrid } from '../../features/dashboard/components/dashboard-grid';
import { DatasetListPanel } from '../../features/datasets/components/dataset-list-panel';
import { ExtractorListPanel } from '../../features/extractors/components/extractor-list-panel';
import { RunErrorNotices } from '../../features/extractors/components/run-error-notices';
import { LIST_KINDS } from '../../features/extractors/list-kinds';
import { ChangePasswordForm } from '../../features/password/components/change-password-form';
import { MessagingPanel } from '../../features/messaging/components/messaging-panel';
import { QueryListPanel } from '../../features/queries/components/query-list-panel';
import { SchedulerListPanel } from '../../features/schedulers/components/scheduler-list-panel';
import { StatementRecognitionPanel } from '../../features/statement-recognition/components/statement-recognition-panel';
import { useUserSettings } from '../../features/user-settings/api/get-user-settings';
import { useUpdateUserSetting } from '../../features/user-settings/api/update-user-setting';
import { DialogLoading } from '../../components/route-loading';
import { errorText } from '../../lib/api-client';
import { useSession } from '../../lib/session';
import type { WebhookOwner } from '../../features/webhooks/api/webhook-owner';

// Webhooks of an item (issue 26), loaded when first shown.
const WebhooksDialog = lazy(() =>
  import('../../features/webhooks/components/webhooks-dialog').then((m) => ({ default: m.WebhooksDialog })),
);

// The bulk-run dialog of an extractor with inputs (issue 26, item 4), loaded when first shown.
const BulkRunDialog = lazy(() =>
  import('../../features/bulk-runs/components/bulk-run-dialog').then((m) => ({ default: m.BulkRunDialog })),
);

// Run results (steps, values, tables, pictures) load when first shown.
const RunResultsDialog = lazy(() =>
  import('../../features/runs/components/run-results-dialog').then((m) => ({ default: m.RunResultsDialog })),
);

/** /dashboard: while a temporary password is set only the change-password form shows. */
export function DashboardRoute() {
  const { t } = useTranslation();
  const { isTempPasswordSet, isRemoteEngine } = useSession();
  const settings = useUserSettings({ isEnabled: !isTempPasswordSet });
  const updateSetting = useUpdateUserSetting();
  // The run whose results show: the lists offer them, the runs feature shows them.
  const [results, setResults] = useState<{ runId: string; name: string } | null>(null);
  const showResults = (item: ExtractorListItem) => {
    if (item.lastRunId !== null) setResults({ runId: item.lastRunId, name: item.name });
  };
  const [webhooksOf, setWebhooksOf] = useState<WebhookOwner | null>(null);
  const [bulkRunOf, setBulkRunOf] = useState<ExtractorListItem | null>(null);

  if (isTempPasswordSet) {
    return (
      <Card data-testid="temporary-password" sx={{ maxWidth: 560, mx: 'auto' }}>
        <CardHeader
          title={t('settings.change.password')}
          slotProps={{ title: { variant: 'h6', component: 'h1' } }}
        />
        <CardContent sx={{ pt: 0 }}>
          <Alert severity="info">{t('password.change.required')}</Alert>
          <ChangePasswordForm />
        </CardContent>
      </Card>
    );
  }

  if (settings.isPending) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
        <CircularProgress aria-label={t('app.loading')} />
      </Box>
    );
  }

  const values = settings.data ?? defaultUserSettings();
  const refreshIntervalMs = Number(values.listRefreshInterval) || LIST_REFRESH_INTERVAL_MS;
  const listPanels = {
    ...Object.fromEntries(
      Object.values(LIST_KINDS).map((kind) => [
        kind.panelId,
        <ExtractorListPanel
          key={kind.panelId}
          kind={kind}
          refreshIntervalMs={refreshIntervalMs}
          onShowResults={showResults}
          onShowWebhooks={
            kind.canExecute
              ? (item) => setWebhooksOf({ kind: 'extractor', id: item.id, name: item.name })
              : undefined
          }
          onBulkRun={kind.canExecute ? setBulkRunOf : undefined}
        />,
      ]),
    ),
    datasets: <DatasetListPanel refreshIntervalMs={refreshIntervalMs} />,
    queries: <QueryListPanel refreshIntervalMs={refreshIntervalMs} />,
    scheduler: (
      <SchedulerListPanel
        refreshIntervalMs={refreshIntervalMs}
        onShowWebhooks={(item) => setWebhooksOf({ kind: 'scheduler', id: item.id, name: item.name })}
      />
    ),
    messaging: <MessagingPanel refreshIntervalMs={refreshIntervalMs} />,
    'statement-recognition': <StatementRecognitionPanel />,
  };

  return (
    <>
      {settings.isError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorText(settings.error)}
        </Alert>
      )}
      <DashboardGrid
        settings={values}
        isRemoteEngine={isRemoteEngine}
        panels={listPanels}
        onShowPanel={(name) => updateSetting.mutate({ name, value: 'true' })}
      />
      <RunErrorNotices />
      {results && (
        <Suspense fallback={<DialogLoading />}>
          <RunResultsDialog runId={results.runId} name={results.name} onClose={() => setResults(null)} />
        </Suspense>
      )}
      {webhooksOf && (
        <Suspense fallback={<DialogLoading />}>
          <WebhooksDialog owner={webhooksOf} onClose={() => setWebhooksOf(null)} />
        </Suspense>
      )}
      {bulkRunOf && (
        <Suspense fallback={<DialogLoading />}>
          <BulkRunDialog extractor={bulkRunOf} onClose={() => setBulkRunOf(null)} />
        </Suspense>
      )}
    </>
  );
}
