import { useId, useMemo, useState } from 'react';
import {
  Box,
  FormControlLabel,
  FormHelperText,
  Radio,
  RadioGroup,
  TextField,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Investor } from '@pagewright/shared';

/** Rows drawn at once: an engine may list thousands; the search narrows them down. */
const SHOWN_MAX = 200;

/** Whether an investor's name, portfolioid or confirmation number holds the search (any case). */
export function matchesInvestor(investor: Investor, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return [investor.name, investor.portfolioid, investor.confirmationNumber ?? ''].some((text) =>
    text.toLowerCase().includes(needle),
  );
}

export interface InvestorListProps {
  investors: readonly Investor[];
  /** The chosen investor's portfolioid, or null. */
  value: string | null;
  onChange: (portfolioid: string) => void;
  /** Shown under the list (a required choice not made). */
  error?: string | undefined;
  autoFocus?: boolean;
}

/**
 * The F-engine's investors as radio rows under a search field that filters them by name,
 * portfolioid or confirmation number. Shared by the builder's investor dialog and the run-time
 * ask dialog, which both answer with the chosen portfolioid.
 */
export function InvestorList({ investors, value, onChange, error, autoFocus = false }: InvestorListProps) {
  const { t } = useTranslation();
  const errorId = useId();
  const [search, setSearch] = useState('');
  const matching = useMemo(
    () => investors.filter((investor) => matchesInvestor(investor, search)),
    [investors, search],
  );
  const shown = matching.slice(0, SHOWN_MAX);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <TextField
        type="search"
        label={t('investors.search')}
        value={search}
        autoFocus={autoFocus}
        autoComplete="off"
        onChange={(event) => setSearch(event.target.value)}
        helperText={
          matching.length > SHOWN_MAX
            ? t('investors.shown.some', { shown: SHOWN_MAX, total: matching.length })
            : undefined
        }
      />
      {shown.length === 0 ? (
        <Typography color="text.secondary" role="status">
          {t('investors.none.match')}
        </Typography>
      ) : (
        <RadioGroup
          aria-label={t('investors.list')}
          aria-describedby={error ? errorId : undefined}
          value={value ?? ''}
          onChange={(event) => onChange(event.target.value)}
          sx={{
            maxHeight: 320,
            overflow: 'auto',
            flexWrap: 'nowrap',
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
          }}
        >
          {shown.map((investor) => (
            <FormControlLabel
              key={investor.portfolioid}
              value={investor.portfolioid}
              sx={{ mx: 0, px: 1, py: 0.5, borderBottom: 1, borderColor: 'divider' }}
              control={
                <Radio
                  slotProps={{
                    input: {
                      'aria-label': t('investors.option', {
                        name: investor.name,
                        portfolioid: investor.portfolioid,
                      }),
                    },
                  }}
                />
              }
              label={
                <Box>
                  <Typography>{investor.name}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    {investor.confirmationNumber
                      ? t('investors.details', {
                          portfolioid: investor.portfolioid,
                          confirmationNumber: investor.confirmationNumber,
                        })
                      : investor.portfolioid}
                  </Typography>
                </Box>
              }
            />
          ))}
        </RadioGroup>
      )}
      {error && (
        <FormHelperText id={errorId} error>
          {error}
        </FormHelperText>
      )}
    </Box>
  );
}
