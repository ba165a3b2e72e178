import { useState } from 'react';
import { IconButton, ListItem, ListItemText, Menu, MenuItem, Stack, Tooltip } from '@mui/material';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import MoreVert from '@mui/icons-material/MoreVert';
import { useTranslation } from 'react-i18next';
import type { ExtractorListItem } from '@pagewright/shared';
import type { ListKind } from '../list-kinds';
import { StatusMarker } from './status-marker';

export interface RowActions {
  onExecute: (item: ExtractorListItem) => void;
  onCopy: (item: ExtractorListItem) => void;
  onRename: (item: ExtractorListItem) => void;
  onEdit: (item: ExtractorListItem) => void;
  onDelete: (item: ExtractorListItem) => void;
  /** Opens the results of the item's last run (given by the screen that shows them). */
  onShowResults?: (item: ExtractorListItem) => void;
  /** Opens the item's webhooks (given by the screen that shows them). */
  onShowWebhooks?: (item: ExtractorListItem) => void;
  /** Opens the bulk-run dialog of an item with inputs (given by the screen that shows it). */
  onBulkRun?: (item: ExtractorListItem) => void;
}

/** Statuses a finished run leaves: their marker opens that run's results. */
const FINISHED_STATUSES: ReadonlySet<string> = new Set(['SUCCESS', 'ERROR', 'STOPPED']);

/**
 * One list row: status marker, name (description below), edit icon, menu and delete icon. While
 * it executes there is neither menu nor delete (spec §4).
 */
export function ExtractorRow({
  kind,
  item,
  actions,
}: {
  kind: ListKind;
  item: ExtractorListItem;
  actions: RowActions;
}) {
  const { t } = useTranslation();
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const isExecuting = item.status === 'EXECUTING';
  const choose = (action: (row: ExtractorListItem) => void) => () => {
    setMenuAnchor(null);
    action(item);
  };
  const menuId = `row-menu-${item.id}`;
  const showResults = item.lastRunId !== null ? actions.onShowResults : undefined;

  return (
    <ListItem
      divider
      disableGutters
      data-testid={`row-${item.id}`}
      data-status={item.status ?? 'NONE'}
      aria-label={item.name}
      sx={{ gap: 1.5, pr: 0 }}
    >
      {showResults && item.status !== null && FINISHED_STATUSES.has(item.status) ? (
        <Tooltip title={t('runs.results.named', { name: item.name })}>
          <IconButton
            aria-label={t('runs.results.named', { name: item.name })}
            onClick={() => showResults(item)}
            sx={{ p: 0.5, m: -0.5 }}
          >
            <StatusMarker status={item.status} />
          </IconButton>
        </Tooltip>
      ) : (
        <StatusMarker status={item.status} />
      )}
      <ListItemText
        primary={item.name}
        secondary={item.description}
        slotProps={{
          primary: { noWrap: true, title: item.name },
          secondary: { noWrap: true, title: item.description },
        }}
        sx={{ minWidth: 0 }}
      />
      <Stack direction="row" sx={{ flexShrink: 0 }}>
        <Tooltip title={t('extractors.edit')}>
          <IconButton
            aria-label={t('extractors.edit.named', { name: item.name })}
            onClick={() => actions.onEdit(item)}
          >
            <EditOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
        {!isExecuting && (
          <IconButton
            aria-label={t('extractors.menu.named', { name: item.name })}
            aria-haspopup="menu"
            aria-controls={menuAnchor ? menuId : undefined}
            aria-expanded={menuAnchor ? 'true' : undefined}
            onClick={(event) => setMenuAnchor(event.currentTarget)}
          >
            <MoreVert fontSize="small" />
          </IconButton>
        )}
        {!isExecuting && (
          <Tooltip title={t('extractors.delete')}>
            <IconButton
              aria-label={t('extractors.delete.named', { name: item.name })}
              onClick={() => actions.onDelete(item)}
            >
              <DeleteOutlined fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
      </Stack>
      <Menu id={menuId} anchorEl={menuAnchor} open={menuAnchor !== null} onClose={() => setMenuAnchor(null)}>
        {kind.canExecute && (
          <MenuItem onClick={choose(actions.onExecute)}>{t('extractors.execute')}</MenuItem>
        )}
        {showResults && <MenuItem onClick={choose(showResults)}>{t('runs.results')}</MenuItem>}
        <MenuItem onClick={choose(actions.onCopy)}>{t('extractors.copy')}</MenuItem>
        <MenuItem onClick={choose(actions.onRename)}>{t('extractors.rename')}</MenuItem>
        <MenuItem onClick={choose(actions.onEdit)}>{t('extractors.edit')}</MenuItem>
        {actions.onShowWebhooks && (
          <MenuItem onClick={choose(actions.onShowWebhooks)}>{t('webhooks.menu')}</MenuItem>
        )}
        {actions.onBulkRun &&
          (item.inputs.length > 0 ? (
            <MenuItem onClick={choose(actions.onBulkRun)}>{t('bulk.runs.menu')}</MenuItem>
          ) : (
            // Shown disabled, saying why: a bulk run varies the inputs, and this item has none yet.
            <MenuItem disabled>
              <ListItemText
                primary={t('bulk.runs.menu')}
                secondary={t('bulk.runs.menu.no.inputs')}
                slotProps={{ secondary: { sx: { whiteSpace: 'normal', maxWidth: 260 } } }}
              />
            </MenuItem>
          ))}
      </Menu>
    </ListItem>
  );
}
