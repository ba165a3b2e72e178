import { messageResponseSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** GET /dataset/canceldataset: drops the caller's draft (a saved dataset stays as it was). */
export function cancelDataset() {
  return apiRequest('/dataset/canceldataset', { schema: messageResponseSchema });
}
