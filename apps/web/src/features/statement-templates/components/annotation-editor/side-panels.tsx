import { useState } from 'react';
import {
  Box,
  Button,
  IconButton,
  List,
  ListItemButton,
  ListItemText,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import { MAPPING_TYPES, type MappingType } from '@pagewright/shared';
import { CLASS_COLOURS, type HistoryEntry } from './editor-state';
import type { AnnotationClass, BoxRegion } from './types';

function PanelTitle({ children }: { children: string }) {
  return (
    <Typography variant="subtitle2" component="h3" sx={{ mt: 1 }}>
      {children}
    </Typography>
  );
}

/** Classes: a field name and its type each; hotkeys 1-9 pick the first nine. */
export function ClassesPanel({
  classes,
  current,
  onPick,
  onAdd,
}: {
  classes: readonly AnnotationClass[];
  current: string | null;
  onPick: (cls: AnnotationClass) => void;
  onAdd: (cls: AnnotationClass) => void;
}) {
  const { t } = useTranslation();
  const [label, setLabel] = useState('');
  const [type, setType] = useState<MappingType>('TEXT');
  const add = () => {
    const name = label.trim();
    if (name === '' || classes.some((cls) => cls.label === name)) return;
    onAdd({ label: name, type });
    setLabel('');
  };
  return (
    <Box component="section" aria-label={t('annotation.classes')}>
      <PanelTitle>{t('annotation.classes')}</PanelTitle>
      <List dense disablePadding>
        {classes.map((cls, index) => (
          <ListItemButton
            key={cls.label}
            selected={cls.label === current}
            onClick={() => onPick(cls)}
            aria-label={t('annotation.class.named', { name: cls.label })}
          >
            <Box
              sx={{
                width: 12,
                height: 12,
                mr: 1,
                bgcolor: CLASS_COLOURS[index % CLASS_COLOURS.length],
                borderRadius: 0.5,
              }}
            />
            <ListItemText primary={`${index < 9 ? `${index + 1}. ` : ''}${cls.label}`} secondary={cls.type} />
          </ListItemButton>
        ))}
      </List>
      <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
        <TextField
          size="small"
          label={t('annotation.class.name')}
          value={label}
          onChange={(event) => setLabel(event.target.value)}
          onKeyDown={(event) => event.key === 'Enter' && add()}
        />
        <TextField
          size="small"
          select
          label={t('annotation.class.type')}
          value={type}
          onChange={(event) => setType(event.target.value as MappingType)}
          sx={{ minWidth: 110 }}
        >
          {MAPPING_TYPES.map((option) => (
            <MenuItem key={option} value={option}>
              {option}
            </MenuItem>
          ))}
        </TextField>
        <Button onClick={add}>{t('annotation.class.add')}</Button>
      </Stack>
    </Box>
  );
}

/** The selected box: its class (field name), type and the label it is anchored to. */
export function SelectedBoxPanel({
  region,
  classes,
  onClass,
  onChange,
}: {
  region: BoxRegion;
  classes: readonly AnnotationClass[];
  onClass: (cls: AnnotationClass) => void;
  onChange: (changes: Partial<Pick<BoxRegion, 'type' | 'anchorText'>>) => void;
}) {
  const { t } = useTranslation();
  return (
    <Box component="section" aria-label={t('annotation.selected')}>
      <PanelTitle>{t('annotation.selected')}</PanelTitle>
      <Stack spacing={1} sx={{ mt: 1 }}>
        <TextField
          size="small"
          select
          label={t('annotation.selected.field')}
          value={region.cls ?? ''}
          onChange={(event) => {
            const cls = classes.find((candidate) => candidate.label === event.target.value);
            if (cls) onClass(cls);
          }}
        >
          {classes.map((cls) => (
            <MenuItem key={cls.label} value={cls.label}>
              {cls.label}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          select
          label={t('annotation.selected.type')}
          value={region.type}
          onChange={(event) => onChange({ type: event.target.value as MappingType })}
        >
          {MAPPING_TYPES.map((option) => (
            <MenuItem key={option} value={option}>
              {option}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          label={t('annotation.selected.anchor')}
          helperText={t('annotation.selected.anchor.help')}
          value={region.anchorText ?? ''}
          onChange={(event) =>
            onChange({ anchorText: event.target.value === '' ? null : event.target.value })
          }
        />
      </Stack>
    </Box>
  );
}

/** The page's boxes: select one, or delete it. */
export function RegionsPanel({
  regions,
  selectedId,
  onSelect,
  onDelete,
}: {
  regions: readonly BoxRegion[];
  selectedId: string | null;
  onSelect: (id: string) => void;
  onDelete: (id: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Box component="section" aria-label={t('annotation.regions')}>
      <PanelTitle>{t('annotation.regions.count', { count: regions.length })}</PanelTitle>
      <List dense disablePadding>
        {regions.map((region, index) => (
          <ListItemButton
            key={region.id}
            selected={region.id === selectedId}
            onClick={() => onSelect(region.id)}
          >
            <Box sx={{ width: 12, height: 12, mr: 1, border: 2, borderColor: region.color }} />
            <ListItemText
              primary={region.cls ?? t('annotation.region.unnamed', { number: index + 1 })}
              secondary={region.type}
            />
            <IconButton
              size="small"
              edge="end"
              aria-label={
                region.cls === null
                  ? t('annotation.region.delete.unnamed', { number: index + 1 })
                  : t('annotation.region.delete', { name: region.cls })
              }
              onClick={(event) => {
                event.stopPropagation();
                onDelete(region.id);
              }}
            >
              <DeleteOutlined fontSize="small" />
            </IconButton>
          </ListItemButton>
        ))}
      </List>
    </Box>
  );
}

/** The last ten changes, newest first; Undo restores before the newest. */
export function HistoryPanel({ history, onUndo }: { history: readonly HistoryEntry[]; onUndo: () => void }) {
  const { t } = useTranslation();
  return (
    <Box component="section" aria-label={t('annotation.history')}>
      <PanelTitle>{t('annotation.history')}</PanelTitle>
      <List dense disablePadding>
        {[...history].reverse().map((entry, index) => (
          <ListItemText
            key={`${entry.time}-${index}`}
            primary={t(`annotation.change.${entry.kind}`, { cls: entry.cls ?? '' })}
            secondary={new Date(entry.time).toLocaleTimeString()}
            sx={{ px: 2 }}
          />
        ))}
      </List>
      <Button size="small" onClick={onUndo} disabled={history.length === 0}>
        {t('annotation.history.undo')}
      </Button>
    </Box>
  );
}
