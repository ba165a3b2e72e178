import { Typography } from '@mui/material';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { DASHBOARD_PANELS, MESSAGES, renameQueryRequestSchema, type QueryDto } from '@pagewright/shared';
import { ItemListCard } from '../../../components/item-list-card';
import { ItemListRow, type ItemMenuEntry } from '../../../components/item-list-row';
import { useNamedItemDialogs } from '../../../components/named-item-dialogs';
import { errorText } from '../../../lib/api-client';
import { PATHS } from '../../../lib/paths';
import { deleteQuery } from '../api/delete-query';
import { queryListQueryKey, useQueryList } from '../api/list-queries';
import { renameQuery } from '../api/rename-query';
import { queryWizardLocation, type QueryWizardMode } from '../wizard-location';

const TITLE = DASHBOARD_PANELS.find((panel) => panel.id === 'queries')?.title ?? 'Queries';

/**
 * The Queries panel of the dashboard: the caller's queries with Add, Execute (the wizard at its
 * filters, without Save), Rename, Edit (CUSTOM queries only, automation spec §2) and Delete.
 */
export function QueryListPanel({ refreshIntervalMs }: { refreshIntervalMs: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useQueryList(refreshIntervalMs);
  const items = useNamedItemDialogs<QueryDto>({
    listQueryKey: queryListQueryKey,
    renameTitle: t('queries.rename'),
    renameSchema: renameQueryRequestSchema,
    uniqueText: MESSAGES['query.list.error.unique'],
    rename: renameQuery,
    deleteTitle: t('queries.delete.title'),
    deleteText: (item) => t('queries.delete.text', { name: item.name }),
    remove: deleteQuery,
  });

  const open = (item: QueryDto, mode: QueryWizardMode) => {
    const location = queryWizardLocation({
      queryId: item.id,
      name: item.name,
      description: item.description,
      mode,
    });
    navigate(location.to, { state: location.state });
  };

  const rows = list.data ?? [];
  return (
    <>
      <ItemListCard
        panelId="queries"
        title={TITLE}
        addLabel={t('queries.add')}
        onAdd={() => void navigate(PATHS.queryNew)}
        isPending={list.isPending}
        errorText={list.isError ? errorText(list.error) : null}
        isEmpty={rows.length === 0}
      >
        {rows.map((item) => {
          const menu: ItemMenuEntry[] = [
            { label: t('extractors.execute'), onClick: () => open(item, 'execute') },
            { label: t('extractors.rename'), onClick: () => items.openRename(item) },
            { label: t('extractors.edit'), onClick: () => open(item, 'edit') },
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
              onEdit={() => open(item, 'edit')}
              onDelete={() => items.openDelete(item)}
            />
          );
        })}
      </ItemListCard>
      {items.dialogs}
    </>
  );
}
