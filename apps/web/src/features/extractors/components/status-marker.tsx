import { Box } from '@mui/material';
import CheckCircle from '@mui/icons-material/CheckCircle';
import ErrorOutlined from '@mui/icons-material/Error';
import StopCircle from '@mui/icons-material/StopCircle';
import { keyframes } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import type { RunStatus } from '@pagewright/shared';

const pulse = keyframes`
  0% { transform: scale(0.85); opacity: 1; }
  50% { transform: scale(1.15); opacity: 0.45; }
  100% { transform: scale(0.85); opacity: 1; }
`;

const SIZE = 20;

/** The list status of one row (spec §4): EXECUTING pulses; nothing before the first run. */
export function StatusMarker({ status }: { status: RunStatus | null }) {
  const { t } = useTranslation();
  if (status === null) return <Box sx={{ width: SIZE, flexShrink: 0 }} />;
  const label = t(`extractors.status.${status}`);
  if (status === 'EXECUTING') {
    return (
      <Box
        role="img"
        aria-label={label}
        title={label}
        sx={{
          width: SIZE,
          height: SIZE,
          flexShrink: 0,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
        }}
      >
        <Box
          sx={{
            width: 12,
            height: 12,
            borderRadius: '50%',
            bgcolor: 'primary.main',
            animation: `${pulse} 1.2s ease-in-out infinite`,
            '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
          }}
        />
      </Box>
    );
  }
  const Icon = status === 'SUCCESS' ? CheckCircle : status === 'ERROR' ? ErrorOutlined : StopCircle;
  const color = status === 'SUCCESS' ? 'success' : status === 'ERROR' ? 'error' : 'disabled';
  return <Icon titleAccess={label} color={color} sx={{ fontSize: SIZE, flexShrink: 0 }} />;
}
