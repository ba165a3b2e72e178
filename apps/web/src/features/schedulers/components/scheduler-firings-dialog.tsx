import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { SchedulerDto, SchedulerFiringDto } from '@pagewright/shared';
import { RunStatusChip } from '../../../components/run-status-chip';
import { errorText } from '../../../lib/api-client';
import { useSchedulerFirings } from '../api/list-scheduler-firings';
import { dateTimeText } from '../frequency-text';

function Outcome({ firing }: { firing: SchedulerFiringDto }) {
  const { t } = useTranslation();
  if (firing.outcome === 'SKIPPED')
    return (
      <Typography variant="body2" color="text.secondary">
        {firing.skipReason ?? t('schedulers.runs.skipped')}
      </Typography>
    );
  // Redis lost the schedule: the reason says how many firings did not happen and when it came back.
  if (firing.outcome === 'MISSED')
    return (
      <Typography variant="body2" color="warning.main">
        {firing.skipReason ?? t('schedulers.runs.missed')}
      </Typography>
    );
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <Typography variant="body2">{t('schedulers.runs.started')}</Typography>
      {firing.runStatus && <RunStatusChip status={firing.runStatus} />}
      {firing.runErrorMessage && (
        <Typography variant="caption" color="error">
          {firing.runErrorMessage}
        </Typography>
      )}
    </Stack>
  );
}

/** What a scheduler's latest firings did (beyond the spec): per extractor, the run started or why not. */
export function SchedulerFiringsDialog({
  scheduler,
  onClose,
}: {
  scheduler: SchedulerDto;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const firings = useSchedulerFirings(scheduler.id);
  const rows = firings.data ?? [];
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="scheduler-firings-title">
      <DialogTitle id="scheduler-firings-title">
        {t('schedulers.runs.title', { name: scheduler.name })}
      </DialogTitle>
      <DialogContent>
        {firings.isError && <Alert severity="error">{errorText(firings.error)}</Alert>}
        {firings.isPending ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 2 }}>
            <CircularProgress size={24} aria-label={t('app.loading')} />
          </Box>
        ) : rows.length === 0 ? (
          !firings.isError && <Typography color="text.secondary">{t('schedulers.runs.empty')}</Typography>
        ) : (
          <Table size="small" aria-label={t('schedulers.runs')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('schedulers.runs.scheduled')}</TableCell>
                <TableCell>{t('schedulers.runs.extractor')}</TableCell>
                <TableCell>{t('schedulers.runs.outcome')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((firing) => (
                <TableRow key={`${firing.scheduledFor}:${firing.extractorId}`}>
                  <TableCell>
                    <time dateTime={firing.scheduledFor}>
                      {dateTimeText(firing.scheduledFor, scheduler.timeZone)}
                    </time>
                  </TableCell>
                  <TableCell>{firing.extractorName}</TableCell>
                  <TableCell>
                    <Outcome firing={firing} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('dialog.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
