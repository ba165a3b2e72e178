import {
  Alert,
  Checkbox,
  Chip,
  FormHelperText,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { SchedulerExtractor } from '@pagewright/shared';

/** The kinds a scheduler can run: navigators have no Execute (the API refuses them). */
export const SCHEDULABLE_KINDS = ['EXTRACTOR', 'INSERTOR'] as const;

/**
 * The wizard's second step: the caller's extractors and insertors, each with a check box and its
 * kind; Save needs at least one (`error` shows under the list).
 */
export function ExtractorStep({
  extractors,
  selected,
  error,
  onChange,
}: {
  extractors: readonly SchedulerExtractor[];
  selected: ReadonlySet<string>;
  error: string | undefined;
  onChange: (selected: Set<string>) => void;
}) {
  const { t } = useTranslation();
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onChange(next);
  };
  return (
    <>
      {extractors.length === 0 ? (
        <Alert severity="info">{t('schedulers.extractors.empty')}</Alert>
      ) : (
        <List dense aria-label={t('schedulers.extractors.list')} sx={{ maxWidth: 560 }}>
          {extractors.map((extractor) => (
            <ListItem key={extractor.id} disablePadding>
              <ListItemButton onClick={() => toggle(extractor.id)} dense>
                <ListItemIcon>
                  <Checkbox
                    edge="start"
                    checked={selected.has(extractor.id)}
                    tabIndex={-1}
                    disableRipple
                    slotProps={{
                      input: { 'aria-label': t('schedulers.extractors.use.of', { name: extractor.name }) },
                    }}
                  />
                </ListItemIcon>
                <ListItemText primary={extractor.name} />
                <Chip
                  size="small"
                  variant="outlined"
                  label={t(
                    extractor.extractorType === 'INSERTOR'
                      ? 'schedulers.kind.INSERTOR'
                      : 'schedulers.kind.EXTRACTOR',
                  )}
                />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      )}
      {error && (
        <FormHelperText error role="alert">
          {error}
        </FormHelperText>
      )}
    </>
  );
}
