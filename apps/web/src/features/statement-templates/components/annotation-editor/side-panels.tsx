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
  const [label, setLabel] = useState('');
  const [type, setType] = useState<MappingType>('TEXT');
  const add = () => {
    const name = label.trim();
    if (name === '' || classes.some((cls) => cls.label === name)) return;
    onAdd({ label: name, type });
    setLabel('');
  };
  return (
    <Box component="section" aria-label="Classes">
      <PanelTitle>Classes</PanelTitle>
      <List dense disablePadding>
        {classes.map((cls, index) => (
          <ListItemButton
            key={cls.label}
            selected={cls.label === current}
            onClick={() => onPick(cls)}
            aria-label={`Class ${cls.label}`}
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
          label="Field name"
          value={label}
          onChange={(event) => setLabel(event.target.value)}
          onKeyDown={(event) => event.key === 'Enter' && add()}
        />
        <TextField
          size="small"
          select
          label="Type"
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
        <Button onClick={add}>Add class</Button>
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
  return (
    <Box component="section" aria-label="Selected box">
      <PanelTitle>Selected box</PanelTitle>
      <Stack spacing={1} sx={{ mt: 1 }}>
        <TextField
          size="small"
          select
          label="Field"
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
          label="Field type"
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
          label="Anchor label"
          helperText="Printed label the box belongs to, e.g. 'Account number:' (optional)"
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
  return (
    <Box component="section" aria-label="Regions">
      <PanelTitle>{`Regions (${regions.length})`}</PanelTitle>
      <List dense disablePadding>
        {regions.map((region, index) => (
          <ListItemButton
            key={region.id}
            selected={region.id === selectedId}
            onClick={() => onSelect(region.id)}
          >
            <Box sx={{ width: 12, height: 12, mr: 1, border: 2, borderColor: region.color }} />
            <ListItemText primary={region.cls ?? `Box ${index + 1} (no field)`} secondary={region.type} />
            <IconButton
              size="small"
              edge="end"
              aria-label={`Delete ${region.cls ?? `box ${index + 1}`}`}
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
  return (
    <Box component="section" aria-label="History">
      <PanelTitle>History</PanelTitle>
      <List dense disablePadding>
        {[...history].reverse().map((entry, index) => (
          <ListItemText
            key={`${entry.time}-${index}`}
            primary={entry.name}
            secondary={new Date(entry.time).toLocaleTimeString()}
            sx={{ px: 2 }}
          />
        ))}
      </List>
      <Button size="small" onClick={onUndo} disabled={history.length === 0}>
        Undo last change
      </Button>
    </Box>
  );
}
