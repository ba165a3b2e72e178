import { useState } from 'react';
import { Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { DASHBOARD_PANELS, MESSAGES, renameQueryRequestSchema, type QueryDto } from '@pagewright/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ItemListCard } from '../../../components/item-list-card';
import { ItemListRow, type ItemMenuEntry } from '../../../components/item-list-row';
import { RenameDialog } from '../../../components/rename-dialog';
import { errorText } from '../../../lib/api-client';
import { PATHS } from '../../../lib/paths';
import { toast } from '../../../lib/toast';
import { deleteQuery } from '../api/delete-query';
import { queryListQueryKey, useQueryList } from '../api/list-queries';
import { renameQuery } from '../api/rename-query';
import { queryWizardLocation, type QueryWizardMode } from '../wizard-location';

type OpenDialog = { kind: 'rename'; item: QueryDto } | { kind: 'delete'; item: QueryDto } | null;

const TITLE = DASHBOARD_PANELS.find((panel) => panel.id === 'queries')?.title ?? 'Queries';

/**
 * The Queries panel of the dashboard: the caller's queries with Add, Execute (the wizard at its
 * filters, without Save), Rename, Edit (CUSTOM queries only, automation spec §2) and Delete.
 */
export function QueryListPanel({ refreshIntervalMs }: { refreshIntervalMs: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const list = useQueryList(refreshIntervalMs);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [isDeleting, setIsDeleting] = useState(false);
  const reload = () => queryClient.invalidateQueries({ queryKey: queryListQueryKey });

  const open = (item: QueryDto, mode: QueryWizardMode) => {
    const location = queryWizardLocation({
      queryId: item.id,
      name: item.name,
      description: item.description,
      mode,
    });
    navigate(location.to, { state: location.state });
  };

  const rename = async (item: QueryDto, values: { name: string; description: string }) => {
    const renamed = await renameQuery({ id: item.id, ...values });
    setDialog(null);
    toast.success(renamed.message);
    await reload();
  };

  const remove = async (item: QueryDto) => {
    setIsDeleting(true);
    try {
      const deleted = await deleteQuery(item.id);
      toast.success(deleted.message);
      queryClient.setQueryData<QueryDto[]>(queryListQueryKey, (current) =>
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

  const rows = list.data ?? [];
  return (
    <>
      <ItemListCard
        panelId="queries"
        title={TITLE}
        addLabel={t('queries.add')}
        onAdd={() => navigate(PATHS.queryNew)}
        isPending={list.isPending}
        errorText={list.isError ? errorText(list.error) : null}
        isEmpty={rows.length === 0}
      >
        {rows.map((item) => {
          const isEditable = item.type === 'CUSTOM';
          const menu: ItemMenuEntry[] = [
            { label: t('extractors.execute'), onClick: () => open(item, 'execute') },
            { label: t('extractors.rename'), onClick: () => setDialog({ kind: 'rename', item }) },
            ...(isEditable ? [{ label: t('extractors.edit'), onClick: () => open(item, 'edit') }] : []),
          ];
          return (
            <ItemListRow
              key={item.id}
              id={item.id}
              name={item.name}
              description={item.description}
              extra={
                item.datasetName && (
                  <Typography variant="caption" component="span" sx={{ display: 'block' }}>
                    {t('queries.dataset.of', { name: item.datasetName })}
                  </Typography>
                )
              }
              menu={menu}
              onEdit={isEditable ? () => open(item, 'edit') : undefined}
              onDelete={() => setDialog({ kind: 'delete', item })}
            />
          );
        })}
      </ItemListCard>
      {dialog?.kind === 'rename' && (
        <RenameDialog
          title={t('queries.rename')}
          initial={{ name: dialog.item.name, description: dialog.item.description }}
          schema={renameQueryRequestSchema}
          uniqueText={MESSAGES['query.list.error.unique']}
          onSubmit={(values) => rename(dialog.item, values)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          title={t('queries.delete.title')}
          text={t('queries.delete.text', { name: dialog.item.name })}
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
