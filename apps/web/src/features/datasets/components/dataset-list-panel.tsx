import { useState } from 'react';
import { Box, Tooltip, Typography } from '@mui/material';
import WarningAmberOutlined from '@mui/icons-material/WarningAmberOutlined';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { DASHBOARD_PANELS, MESSAGES, renameDatasetRequestSchema, type DatasetDto } from '@pagewright/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ItemListCard } from '../../../components/item-list-card';
import { ItemListRow } from '../../../components/item-list-row';
import { RenameDialog } from '../../../components/rename-dialog';
import { errorText } from '../../../lib/api-client';
import { useLiveEvents } from '../../../lib/live-events';
import { PATHS } from '../../../lib/paths';
import { toast } from '../../../lib/toast';
import { deleteDataset } from '../api/delete-dataset';
import { datasetListQueryKey, useDatasetList } from '../api/list-datasets';
import { renameDataset } from '../api/rename-dataset';
import { datasetWizardLocation } from '../wizard-location';

type OpenDialog = { kind: 'rename'; item: DatasetDto } | { kind: 'delete'; item: DatasetDto } | null;

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

/**
 * The Datasets panel of the dashboard: the caller's datasets (row count, dirty marker), reloaded
 * every `refreshIntervalMs` and whenever a run ends (runs fill datasets), with Add, Edit, Rename
 * and Delete.
 */
export function DatasetListPanel({ refreshIntervalMs }: { refreshIntervalMs: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const list = useDatasetList(refreshIntervalMs);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [isDeleting, setIsDeleting] = useState(false);
  const reload = () => queryClient.invalidateQueries({ queryKey: datasetListQueryKey });

  useLiveEvents(['run-status'], (event) => {
    if (event.status !== 'EXECUTING') void reload();
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

  const rename = async (item: DatasetDto, values: { name: string; description: string }) => {
    const renamed = await renameDataset({ id: item.id, ...values });
    setDialog(null);
    toast.success(renamed.message);
    await reload();
  };

  const remove = async (item: DatasetDto) => {
    setIsDeleting(true);
    try {
      const deleted = await deleteDataset(item.id);
      toast.success(deleted.message);
      queryClient.setQueryData<DatasetDto[]>(datasetListQueryKey, (current) =>
        current?.filter((row) => row.id !== item.id),
      );
    } catch (error) {
      // Refused while a query reads it: the server says so.
      toast.error(errorText(error));
    } finally {
      setIsDeleting(false);
      setDialog(null);
      void reload();
    }
  };

  const rows = list.data ?? [];
  return (
    <>
      <ItemListCard
        panelId="datasets"
        title={TITLE}
        addLabel={t('datasets.add')}
        onAdd={() => navigate(PATHS.datasetNew)}
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
              </Typography>
            }
            menu={[
              { label: t('extractors.rename'), onClick: () => setDialog({ kind: 'rename', item }) },
              { label: t('extractors.edit'), onClick: () => edit(item) },
            ]}
            onEdit={() => edit(item)}
            onDelete={() => setDialog({ kind: 'delete', item })}
          />
        ))}
      </ItemListCard>
      {dialog?.kind === 'rename' && (
        <RenameDialog
          title={t('datasets.rename')}
          initial={{ name: dialog.item.name, description: dialog.item.description }}
          schema={renameDatasetRequestSchema}
          uniqueText={MESSAGES['dataset.list.error.unique']}
          onSubmit={(values) => rename(dialog.item, values)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          title={t('datasets.delete.title')}
          text={t('datasets.delete.text', { name: dialog.item.name })}
          confirmLabel={t('extractors.delete')}
          isDestructive
          isBusy={isDeleting}
          onConfirm={() => void remove(dialog.item)}
          onClose={() => setDialog(null)}
        />
      )}
    </>
  );
}
