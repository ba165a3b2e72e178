import type { ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  CircularProgress,
  List,
  Typography,
} from '@mui/material';
import Add from '@mui/icons-material/Add';
import { useTranslation } from 'react-i18next';

/**
 * A dashboard panel holding a list: title, Add button, then a spinner on the first load, the
 * error, "No items yet" (or `emptyText`) or the rows (`children`). `beforeList` sits above all of
 * these (tabs), `afterList` below the rows (Load more).
 */
export function ItemListCard({
  panelId,
  title,
  addLabel,
  onAdd,
  isPending,
  errorText,
  isEmpty,
  emptyText,
  listLabel,
  beforeList,
  afterList,
  children,
}: {
  panelId: string;
  title: string;
  /** The Add button's accessible name ("Add dataset"). */
  addLabel: string;
  onAdd: () => void;
  isPending: boolean;
  errorText: string | null;
  isEmpty: boolean;
  emptyText?: string;
  /** The list's accessible name; the panel's title by default. */
  listLabel?: string;
  beforeList?: ReactNode;
  afterList?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Card
      data-testid={`panel-${panelId}`}
      sx={{ height: '100%', borderTop: 3, borderTopColor: 'primary.main' }}
    >
      <CardHeader
        title={title}
        slotProps={{ title: { variant: 'h6', component: 'h2' } }}
        action={
          <Button startIcon={<Add />} onClick={onAdd} aria-label={addLabel}>
            {t('extractors.add')}
          </Button>
        }
      />
      <CardContent sx={{ pt: 0 }}>
        {beforeList}
        {errorText !== null && (
          <Alert severity="error" sx={{ mb: 1 }}>
            {errorText}
          </Alert>
        )}
        {isPending && errorText === null ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 2 }}>
            <CircularProgress size={24} aria-label={t('app.loading')} />
          </Box>
        ) : isEmpty ? (
          errorText === null && (
            <Typography color="text.secondary">{emptyText ?? t('dashboard.empty')}</Typography>
          )
        ) : (
          <List dense disablePadding aria-label={listLabel ?? title}>
            {children}
          </List>
        )}
        {afterList}
      </CardContent>
    </Card>
  );
}
