import { useState, type ReactNode } from 'react';
import { IconButton, ListItem, ListItemText, Menu, MenuItem, Stack, Tooltip } from '@mui/material';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import MoreVert from '@mui/icons-material/MoreVert';
import { useTranslation } from 'react-i18next';

export interface ItemMenuEntry {
  label: string;
  onClick: () => void;
}

/**
 * A dashboard list row (automation spec §2): name with the description below, an edit icon (when
 * the item can be edited), a menu and a delete icon. `marker` goes before the name, `extra` after
 * the description.
 */
export function ItemListRow({
  id,
  name,
  description,
  marker,
  extra,
  menu,
  onEdit,
  onDelete,
}: {
  id: string;
  name: string;
  description: string;
  marker?: ReactNode;
  extra?: ReactNode;
  menu: readonly ItemMenuEntry[];
  onEdit?: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const menuId = `row-menu-${id}`;
  return (
    <ListItem divider disableGutters data-testid={`row-${id}`} aria-label={name} sx={{ gap: 1.5, pr: 0 }}>
      {marker}
      <ListItemText
        primary={name}
        secondary={
          <>
            {description}
            {extra}
          </>
        }
        slotProps={{
          primary: { noWrap: true, title: name },
          secondary: { noWrap: true, title: description, component: 'div' },
        }}
        sx={{ minWidth: 0 }}
      />
      <Stack direction="row" sx={{ flexShrink: 0 }}>
        {onEdit && (
          <Tooltip title={t('extractors.edit')}>
            <IconButton aria-label={t('extractors.edit.named', { name })} onClick={onEdit}>
              <EditOutlined fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
        <IconButton
          aria-label={t('extractors.menu.named', { name })}
          aria-haspopup="menu"
          aria-controls={menuAnchor ? menuId : undefined}
          aria-expanded={menuAnchor ? 'true' : undefined}
          onClick={(event) => setMenuAnchor(event.currentTarget)}
        >
          <MoreVert fontSize="small" />
        </IconButton>
        <Tooltip title={t('extractors.delete')}>
          <IconButton aria-label={t('extractors.delete.named', { name })} onClick={onDelete}>
            <DeleteOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
      </Stack>
      <Menu id={menuId} anchorEl={menuAnchor} open={menuAnchor !== null} onClose={() => setMenuAnchor(null)}>
        {menu.map((entry) => (
          <MenuItem
            key={entry.label}
            onClick={() => {
              setMenuAnchor(null);
              entry.onClick();
            }}
          >
            {entry.label}
          </MenuItem>
        ))}
      </Menu>
    </ListItem>
  );
}
