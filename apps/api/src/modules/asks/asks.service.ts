import type { Redis } from 'ioredis';
import { actionSecretContext, type SecretBox } from '@pagewright/db';
import {
  ASK_MESSAGES,
  askAnswerKey,
  type ExtractorType,
  type PendingAskAction,
  type UpdatePendingAskRequest,
  type UpdatePendingAskResponse,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import type { AskRepository } from './asks.repository.js';

/** The word the ask dialog sends to cancel; the worker stops the run (automation spec §4). */
const CANCELED = 'CANCELED';
/** An answer nobody consumes (the run already ended) does not linger in Redis. */
const ANSWER_TTL_SECONDS = 60;

/** The ask dialog (automation spec §7): what a run waits for, and the answer sent to its worker. */
export function createAskService(deps: {
  asks: AskRepository;
  redis: Redis;
  keyPrefix: string;
  secrets: SecretBox;
}) {
  const { asks, redis, keyPrefix, secrets } = deps;

  return {
    async pending(userId: string, extractorType: ExtractorType): Promise<PendingAskAction | null> {
      const ask = await asks.findOldestPending(userId, extractorType, new Date());
      if (!ask) return null;
      const screenshot = ask.elementScreenshot?.content;
      return {
        id: ask.id,
        type: ask.actionType,
        label: ask.label,
        options: { text: ask.questionText },
        saveOptionsFlag: ask.action?.saveOptionsFlag ?? ask.saveOptionsFlag,
        elementScreenshot: screenshot ? Buffer.from(screenshot).toString('base64') : null,
        extractorId: ask.run.extractorId,
        runId: ask.runId,
        updated: false,
      };
    },

    async answer(userId: string, body: UpdatePendingAskRequest): Promise<UpdatePendingAskResponse> {
      const ask = await asks.findOwnedPending(userId, body.id, new Date());
      if (!ask) throw AppError.notFound();
      const canceled = body.textValue === CANCELED;
      const save = body.saveOptionsFlag === true && !canceled;
      if (!(await asks.claim(userId, ask.id, canceled ? 'CANCELED' : 'ANSWERED', save))) {
        throw AppError.notFound();
      }
      if (save && ask.actionId) {
        await asks.saveSecret(
          userId,
          ask.actionId,
          secrets.seal(body.textValue, actionSecretContext(userId, ask.actionId)),
        );
      }
      const key = askAnswerKey(keyPrefix, ask.id);
      await redis.multi().rpush(key, body.textValue).expire(key, ANSWER_TTL_SECONDS).exec();
      return { message: ASK_MESSAGES.answerSent };
    },
  };
}
export type AskService = ReturnType<typeof createAskService>;
