import { Box, Tooltip, Typography } from '@mui/material';
import WarningAmberOutlined from '@mui/icons-material/WarningAmberOutlined';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { DASHBOARD_PANELS, MESSAGES, renameDatasetRequestSchema, type DatasetDto } from '@pagewright/shared';
import { ItemListCard } from '../../../components/item-list-card';
import { ItemListRow } from '../../../components/item-list-row';
import { useNamedItemDialogs } from '../../../components/named-item-dialogs';
import { errorText } from '../../../lib/api-client';
import { useLiveEvents } from '../../../lib/live-events';
import { PATHS } from '../../../lib/paths';
import { deleteDataset } from '../api/delete-dataset';
import { datasetListQueryKey, useDatasetList } from '../api/list-datasets';
import { renameDataset } from '../api/rename-dataset';
import { datasetWizardLocation } from '../wizard-location';

const TITLE = DASHBOARD_PANELS.find((panel) => panel.id === 'datasets')?.title ?? 'Datasets';

/** Marks a dirty dataset: rows written before its last change may miss the fields added since. */
function DirtyMarker() {
  const { t } = useTranslation();
  return (
    <Tooltip title={t('datasets.dirty.hint')}>
      <WarningAmberOutlined
        color="warning"
        fontSize="small"
        role="img"
        aria-label={t('datasets.dirty')}
        aria-hidden={false}
        tabIndex={0}
        data-testid="dataset-dirty"
      />
    </Tooltip>
  );
}

/** An engine dataset's import state: rows waiting (with why), rows the engine refused. */
function EngineSyncLine({ sync }: { sync: NonNullable<DatasetDto['engineSync']> }) {
  const { t } = useTranslation();
  const waiting =
    sync.pending === 0
      ? null
      : sync.lastError
        ? t('datasets.engine.pending.error', { count: sync.pending, error: sync.lastError })
        : t('datasets.engine.pending', { count: sync.pending });
  const text = [waiting, sync.rejected > 0 ? t('datasets.engine.rejected', { count: sync.rejected }) : null]
    .filter(Boolean)
    .join(' · ');
  return (
    <Typography
      variant="caption"
      component="span"
      color={sync.pending > 0 || sync.rejected > 0 ? 'warning.main' : 'text.secondary'}
      sx={{ display: 'block' }}
      data-testid="dataset-engine-sync"
    >
      {text || t('datasets.engine.synced')}
    </Typography>
  );
}

/**
 * The Datasets panel of the dashboard: the caller's datasets (row count, dirty marker), reloaded
 * every `refreshIntervalMs` and whenever a run ends (runs fill datasets), with Add, Edit, Rename
 * and Delete.
 */
export function DatasetListPanel({ refreshIntervalMs }: { refreshIntervalMs: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useDatasetList(refreshIntervalMs);
  const items = useNamedItemDialogs<DatasetDto>({
    listQueryKey: datasetListQueryKey,
    renameTitle: t('datasets.rename'),
    renameSchema: renameDatasetRequestSchema,
    uniqueText: MESSAGES['dataset.list.error.unique'],
    rename: renameDataset,
    deleteTitle: t('datasets.delete.title'),
    deleteText: (item) => t('datasets.delete.text', { name: item.name }),
    remove: deleteDataset,
  });

  useLiveEvents(['run-status'], (event) => {
    if (event.status !== 'EXECUTING') void items.reload();
  });

  const edit = (item: DatasetDto) => {
    const location = datasetWizardLocation({
      datasetId: item.id,
      type: item.type,
      name: item.name,
      description: item.description,
      isEdit: true,
    });
    navigate(location.to, { state: location.state });
  };

  const rows = list.data ?? [];
  return (
    <>
      <ItemListCard
        panelId="datasets"
        title={TITLE}
        addLabel={t('datasets.add')}
        onAdd={() => void navigate(PATHS.datasetNew)}
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
            marker={item.dirty ? <DirtyMarker /> : <Box sx={{ width: 20, flexShrink: 0 }} />}
            extra={
              <Typography
                variant="caption"
                component="span"
                sx={{ display: 'block' }}
                data-testid="dataset-rows"
              >
                {t('datasets.row.count', { count: item.rowCount })}
                {item.engineSync && <EngineSyncLine sync={item.engineSync} />}
              </Typography>
            }
            menu={[
              { label: t('extractors.rename'), onClick: () => items.openRename(item) },
              { label: t('extractors.edit'), onClick: () => edit(item) },
            ]}
            onEdit={() => edit(item)}
            onDelete={() => items.openDelete(item)}
          />
        ))}
      </ItemListCard>
      {items.dialogs}
    </>
  );
}
