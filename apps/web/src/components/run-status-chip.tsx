import { Chip, type ChipProps } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { RunStatus } from '@pagewright/shared';

const STATUS_COLORS: Record<RunStatus, ChipProps['color']> = {
  EXECUTING: 'primary',
  SUCCESS: 'success',
  ERROR: 'error',
  STOPPED: 'default',
};

/** A run's status as a small coloured chip (run results, a scheduler's runs). */
export function RunStatusChip({
  status,
  ...props
}: { status: RunStatus } & Omit<ChipProps, 'color' | 'label'>) {
  const { t } = useTranslation();
  return (
    <Chip size="small" color={STATUS_COLORS[status]} label={t(`extractors.status.${status}`)} {...props} />
  );
}
