import {
  Box,
  Button,
  Chip,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
  type ChipProps,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import {
  RETRYABLE_BULK_RUN_ITEM_STATUSES,
  type BulkRunItemStatus,
  type BulkRunItemView,
} from '@pagewright/shared';
import type { BulkRunItemFilter } from '../api/list-bulk-run-items';

const STATUS_COLORS: Record<BulkRunItemStatus, ChipProps['color']> = {
  PENDING: 'default',
  STARTING: 'primary',
  RUNNING: 'primary',
  SUCCESS: 'success',
  ERROR: 'error',
  STOPPED: 'warning',
  CANCELLED: 'default',
};

const FILTERS = ['all', 'failed', 'open', 'success'] as const satisfies readonly BulkRunItemFilter[];

const isRetryable = (status: BulkRunItemStatus) =>
  (RETRYABLE_BULK_RUN_ITEM_STATUSES as readonly BulkRunItemStatus[]).includes(status);

/** The input columns of the rows shown, in the order they first appear. */
const inputColumnsOf = (items: readonly BulkRunItemView[]) => [
  ...new Set(items.flatMap((item) => Object.keys(item.inputs))),
];

export interface BulkRunItemsTableProps {
  items: readonly BulkRunItemView[];
  filter: BulkRunItemFilter;
  onFilter: (filter: BulkRunItemFilter) => void;
  hasMore: boolean;
  isLoadingMore: boolean;
  onLoadMore: () => void;
  /** The row whose retry is on its way (its button waits). */
  retryingPosition: number | null;
  onRetry: (item: BulkRunItemView) => void;
  onShowResults: (item: BulkRunItemView) => void;
}

/**
 * The results table of a bulk run: one row per input row (its values, status, attempts, error),
 * Results for a row whose run started, Retry for a row that failed or was stopped. Filtered by
 * status, a page at a time.
 */
export function BulkRunItemsTable({
  items,
  filter,
  onFilter,
  hasMore,
  isLoadingMore,
  onLoadMore,
  retryingPosition,
  onRetry,
  onShowResults,
}: BulkRunItemsTableProps) {
  const { t } = useTranslation();
  const columns = inputColumnsOf(items);
  return (
    <Box>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={filter}
        onChange={(_, value: BulkRunItemFilter | null) => value && onFilter(value)}
        aria-label={t('bulk.runs.filter')}
        sx={{ mb: 1 }}
      >
        {FILTERS.map((value) => (
          <ToggleButton key={value} value={value}>
            {t(`bulk.runs.filter.${value}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      {items.length === 0 ? (
        <Typography color="text.secondary" sx={{ py: 2 }}>
          {t('bulk.runs.items.empty')}
        </Typography>
      ) : (
        <TableContainer>
          <Table size="small" aria-label={t('bulk.runs.items')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('bulk.runs.item.position')}</TableCell>
                {columns.map((column) => (
                  <TableCell key={column}>{column}</TableCell>
                ))}
                <TableCell>{t('bulk.runs.item.status')}</TableCell>
                <TableCell>{t('bulk.runs.item.attempts')}</TableCell>
                <TableCell>{t('bulk.runs.item.error')}</TableCell>
                <TableCell>
                  <Box component="span" sx={visuallyHidden}>
                    {t('bulk.runs.item.actions')}
                  </Box>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {items.map((item) => (
                <TableRow
                  key={item.position}
                  data-testid={`bulk-run-item-${item.position}`}
                  data-status={item.status}
                >
                  <TableCell>{item.position}</TableCell>
                  {columns.map((column) => (
                    <TableCell key={column} sx={{ wordBreak: 'break-all', maxWidth: 280 }}>
                      {item.inputs[column] ?? ''}
                    </TableCell>
                  ))}
                  <TableCell>
                    <Chip
                      size="small"
                      color={STATUS_COLORS[item.status]}
                      label={t(`bulk.runs.item.status.${item.status}`)}
                    />
                  </TableCell>
                  <TableCell>{item.attempts}</TableCell>
                  <TableCell sx={{ maxWidth: 320 }}>{item.errorMessage ?? ''}</TableCell>
                  <TableCell>
                    <Stack direction="row" spacing={1}>
                      {item.runId !== null && (
                        <Button
                          size="small"
                          onClick={() => onShowResults(item)}
                          aria-label={t('bulk.runs.item.results.named', { position: item.position })}
                        >
                          {t('runs.results')}
                        </Button>
                      )}
                      {isRetryable(item.status) && (
                        <Button
                          size="small"
                          onClick={() => onRetry(item)}
                          disabled={retryingPosition === item.position}
                          aria-label={t('bulk.runs.item.retry.named', { position: item.position })}
                        >
                          {t('bulk.runs.item.retry')}
                        </Button>
                      )}
                    </Stack>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {hasMore && (
        <Button onClick={onLoadMore} disabled={isLoadingMore} sx={{ mt: 1 }}>
          {t('bulk.runs.items.more')}
        </Button>
      )}
    </Box>
  );
}

/** Read by screen readers, not shown: the actions column needs a header name, not a visible one. */
const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
