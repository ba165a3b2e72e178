import { useQuery } from '@tanstack/react-query';
import { changeAlertSchema, type ChangeAlert } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

const changeAlertPath = (extractorId: string) => `/webhooks/change-alert/${encodeURIComponent(extractorId)}`;
export const changeAlertQueryKey = (extractorId: string) => ['change-alert', extractorId] as const;

/** GET /webhooks/change-alert/:extractorId: whether its owner is e-mailed when its data changes. */
export function useChangeAlert(extractorId: string, isEnabled: boolean) {
  return useQuery({
    queryKey: changeAlertQueryKey(extractorId),
    queryFn: () => apiRequest(changeAlertPath(extractorId), { schema: changeAlertSchema, quiet: true }),
    enabled: isEnabled,
  });
}

/** PUT /webhooks/change-alert/:extractorId. */
export function setChangeAlert(extractorId: string, alert: ChangeAlert) {
  return apiRequest(changeAlertPath(extractorId), { method: 'PUT', body: alert, schema: changeAlertSchema });
}
