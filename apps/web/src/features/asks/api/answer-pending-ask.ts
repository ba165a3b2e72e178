import {
  updatePendingAskResponseSchema,
  type UpdatePendingAskRequest,
  type UpdatePendingAskResponse,
} from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/**
 * POST /extractor/updatePendingAskAction: the typed answer, 'CANCELED' (stops the run), a
 * reCAPTCHA area's selector, or RECAPTCHA_DONE. Quiet: the dialog shows its own progress.
 */
export function answerPendingAsk(request: UpdatePendingAskRequest): Promise<UpdatePendingAskResponse> {
  return apiRequest('/extractor/updatePendingAskAction', {
    method: 'POST',
    body: request,
    schema: updatePendingAskResponseSchema,
    quiet: true,
  });
}
