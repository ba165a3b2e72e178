import { Box, Button, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '@pagewright/shared';
import type { NextPageDraft } from './get-table-state';

const MAX_PAGES_LIMIT = 1000;

/** The error of a "most pages" field, or null when it is a whole number from 1 to 1000. */
export function maxPagesError(value: string): string | null {
  if (!value.trim()) return MESSAGES['error.required'];
  const pages = Number(value);
  return Number.isInteger(pages) && pages >= 1 && pages <= MAX_PAGES_LIMIT
    ? null
    : MESSAGES['error.invalid.value'];
}

export interface TableNextPageSectionProps {
  nextPage: NextPageDraft | null;
  /** The selection becomes the next-page button. */
  onUseSelection: () => void;
  onChange: (nextPage: NextPageDraft | null) => void;
}

/** A table spread over pages: the button clicked after each page, and how many pages at most. */
export function TableNextPageSection({ nextPage, onUseSelection, onChange }: TableNextPageSectionProps) {
  const { t } = useTranslation();
  const pagesError = nextPage ? maxPagesError(nextPage.maxPages) : null;
  return (
    <Box
      component="section"
      aria-label={t('dialogs.table.next.page')}
      sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}
    >
      <Typography variant="subtitle2" component="h3">
        {t('dialogs.table.next.page')}
      </Typography>
      <Typography
        variant="body2"
        color="text.secondary"
        sx={{ wordBreak: 'break-word' }}
        data-testid="next-page-button"
        title={nextPage?.selector}
      >
        {nextPage
          ? t('dialogs.table.next.page.selected', { selector: nextPage.description })
          : t('dialogs.table.next.page.none')}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, flexWrap: 'wrap' }}>
        <Button size="small" variant="outlined" onClick={onUseSelection}>
          {t('dialogs.table.next.page.use')}
        </Button>
        {nextPage && (
          <>
            <TextField
              label={t('dialogs.table.max.pages')}
              value={nextPage.maxPages}
              size="small"
              margin="none"
              required
              sx={{ width: 140 }}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              onChange={(event) =>
                onChange({ ...nextPage, maxPages: event.target.value.replace(/\D/g, '').slice(0, 4) })
              }
              error={pagesError !== null}
              helperText={pagesError ?? t('dialogs.table.max.pages.hint')}
            />
            <Button size="small" onClick={() => onChange(null)}>
              {t('dialogs.table.next.page.remove')}
            </Button>
          </>
        )}
      </Box>
    </Box>
  );
}
