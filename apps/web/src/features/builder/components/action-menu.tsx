import { Fragment, memo } from 'react';
import { ListSubheader, MenuItem, MenuList, Paper, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { offeredActionTypes, type ActionType, type ExtractorType } from '@pagewright/shared';
import { groupActionTypes } from '../builder-texts';
import { actionTitle } from '../../../lib/action-labels';

export interface ActionMenuProps {
  extractorType: ExtractorType;
  /** A brand-new builder offers only NAVIGATE (spec §3). */
  isEmpty: boolean;
  isDisabled: boolean;
  onChoose: (type: ActionType) => void;
}

/** The left menu that adds actions, grouped; arrow keys move through it (MenuList). */
export const ActionMenu = memo(function ActionMenu({
  extractorType,
  isEmpty,
  isDisabled,
  onChoose,
}: ActionMenuProps) {
  const { t } = useTranslation();
  const groups = isEmpty
    ? [{ id: 'navigation' as const, types: ['NAVIGATE' as const] }]
    : groupActionTypes(offeredActionTypes(extractorType));
  return (
    <Paper
      variant="outlined"
      component="nav"
      aria-labelledby="builder-add-action"
      sx={{ overflow: 'auto', maxHeight: '75vh' }}
    >
      <Typography id="builder-add-action" variant="subtitle2" component="h2" sx={{ px: 2, pt: 1.5, pb: 0.5 }}>
        {t('builder.add.action')}
      </Typography>
      <MenuList dense aria-label={t('builder.add.action')} disabledItemsFocusable={false}>
        {groups.map((group) => (
          <Fragment key={group.id}>
            <ListSubheader sx={{ lineHeight: '32px' }}>{t(`builder.group.${group.id}`)}</ListSubheader>
            {group.types.map((type) => (
              <MenuItem key={type} disabled={isDisabled} onClick={() => onChoose(type)}>
                {actionTitle(type, t)}
              </MenuItem>
            ))}
          </Fragment>
        ))}
      </MenuList>
    </Paper>
  );
});
