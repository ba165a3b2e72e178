import { useState } from 'react';
import {
  Alert,
  Button,
  Chip,
  CircularProgress,
  Pagination,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  type ChipProps,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { WebhookDeliveryStatus } from '@pagewright/shared';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { zonedDateTimeText } from '../../../lib/zoned-time';
import { useWebhookDeliveries } from '../api/list-webhook-deliveries';
import { redeliverWebhook } from '../api/redeliver-webhook';

const STATUS_COLORS: Record<WebhookDeliveryStatus, ChipProps['color']> = {
  PENDING: 'primary',
  DELIVERED: 'success',
  FAILED: 'error',
};

/** One endpoint's delivery log, newest first: status, event, HTTP code, time, attempts, Redeliver. */
export function WebhookDeliveries({ endpointId }: { endpointId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const deliveries = useWebhookDeliveries(endpointId, page);

  const redeliver = async (deliveryId: string) => {
    try {
      await redeliverWebhook(deliveryId);
      toast.success(t('webhook.redelivered'));
      await queryClient.invalidateQueries({ queryKey: ['webhook-deliveries', endpointId] });
    } catch (error) {
      toast.error(errorText(error));
    }
  };

  if (deliveries.isPending) return <CircularProgress size={20} aria-label={t('app.loading')} />;
  if (deliveries.isError) return <Alert severity="error">{errorText(deliveries.error)}</Alert>;
  const { deliveries: rows, total, pageSize } = deliveries.data;
  if (rows.length === 0)
    return (
      <Typography variant="body2" color="text.secondary">
        {t('webhooks.deliveries.empty')}
      </Typography>
    );
  return (
    <Stack spacing={1}>
      <Table size="small" aria-label={t('webhooks.deliveries')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('webhooks.delivery.status')}</TableCell>
            <TableCell>{t('webhooks.delivery.event')}</TableCell>
            <TableCell>{t('webhooks.delivery.code')}</TableCell>
            <TableCell>{t('webhooks.delivery.time')}</TableCell>
            <TableCell>{t('webhooks.delivery.attempts')}</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((delivery) => (
            <TableRow key={delivery.id} data-testid={`delivery-${delivery.id}`} data-status={delivery.status}>
              <TableCell>
                <Chip
                  size="small"
                  color={STATUS_COLORS[delivery.status]}
                  label={t(`webhooks.delivery.status.${delivery.status}`)}
                />
              </TableCell>
              <TableCell>{t(`webhooks.event.${delivery.event}`)}</TableCell>
              <TableCell title={delivery.lastError ?? undefined}>
                {delivery.lastStatusCode ?? (delivery.lastError ? t('webhooks.delivery.no.answer') : '')}
                {delivery.lastError && (
                  <Typography variant="caption" color="error" sx={{ display: 'block', maxWidth: 260 }} noWrap>
                    {delivery.lastError}
                  </Typography>
                )}
              </TableCell>
              <TableCell>{zonedDateTimeText(delivery.lastAttemptAt ?? delivery.createdAt)}</TableCell>
              <TableCell>{delivery.attempts}</TableCell>
              <TableCell>
                <Button size="small" onClick={() => void redeliver(delivery.id)}>
                  {t('webhooks.redeliver')}
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {total > pageSize && (
        <Pagination
          size="small"
          count={Math.ceil(total / pageSize)}
          page={page}
          onChange={(_event, next) => setPage(next)}
        />
      )}
    </Stack>
  );
}
