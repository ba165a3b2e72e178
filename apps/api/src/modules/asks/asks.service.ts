import type { Redis } from 'ioredis';
import { z } from 'zod';
import { actionSecretContext, type SecretBox } from '@pagewright/db';
import {
  ASK_CANCELED,
  ASK_MESSAGES,
  ENGINE_MESSAGES,
  RECAPTCHA_DONE,
  askAnswerKey,
  askMultiStepSchema,
  investorSchema,
  isAnswerSavable,
  pageElementAreaSchema,
  type Investor,
  type ExtractorType,
  type PageElementArea,
  type PendingAskAction,
  type UpdatePendingAskRequest,
  type UpdatePendingAskResponse,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import type { AskRepository } from './asks.repository.js';

const storedAreasSchema = z.array(pageElementAreaSchema);

/** The areas a reCAPTCHA ask offers, as stored by the worker; none when the JSON is not a list. */
function offeredAreas(stored: unknown): PageElementArea[] {
  const parsed = storedAreasSchema.safeParse(stored);
  return parsed.success ? parsed.data : [];
}

const storedInvestorsSchema = z.array(investorSchema);

/** The investors an ASK_F_ENGINE_INVESTOR offered, as stored by the worker. */
function offeredInvestors(stored: unknown): Investor[] {
  const parsed = storedInvestorsSchema.safeParse(stored);
  return parsed.success ? parsed.data : [];
}

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
      const picture = screenshot ? Buffer.from(screenshot).toString('base64') : null;
      const multiStep = askMultiStepSchema.safeParse(ask.askMultiStepDto);
      return {
        id: ask.id,
        type: ask.actionType,
        label: ask.label,
        options: {
          text: ask.questionText,
          askMultiStepDto: multiStep.success
            ? {
                builderStep: multiStep.data.builderStep,
                askDataContentSelector: multiStep.data.askDataContentSelector ?? null,
                askDataScreenshot: picture,
              }
            : null,
        },
        saveOptionsFlag: ask.action?.saveOptionsFlag ?? ask.saveOptionsFlag,
        // Validation runs link only the draft's saved actions (new ones have no row yet).
        isActionSaved: ask.actionId !== null,
        elementScreenshot: picture,
        normalizedElements: ask.actionType === 'ASK_RECAPTCHA' ? offeredAreas(ask.normalizedElements) : null,
        managementDTO:
          ask.actionType === 'ASK_F_ENGINE_INVESTOR' ? { investors: offeredInvestors(ask.investors) } : null,
        extractorId: ask.run.extractorId,
        runId: ask.runId,
        updated: false,
      };
    },

    async answer(userId: string, body: UpdatePendingAskRequest): Promise<UpdatePendingAskResponse> {
      const ask = await asks.findOwnedPending(userId, body.id, new Date());
      if (!ask) throw AppError.notFound();
      const key = askAnswerKey(keyPrefix, ask.id);
      const canceled = body.textValue === ASK_CANCELED;
      if (ask.actionType === 'ASK_RECAPTCHA' && !canceled && body.textValue !== RECAPTCHA_DONE) {
        // A picked area: the run clicks it and offers the same ask again with a fresh picture.
        if (!offeredAreas(ask.normalizedElements).some((area) => area.selector === body.textValue)) {
          throw AppError.validation(ASK_MESSAGES.unknownArea, 'textValue');
        }
        await redis.multi().rpush(key, body.textValue).expire(key, ANSWER_TTL_SECONDS).exec();
        return { message: ASK_MESSAGES.answerSent };
      }
      // An investor ask takes one of the investors it offered (the run checks it too).
      if (
        ask.actionType === 'ASK_F_ENGINE_INVESTOR' &&
        !canceled &&
        !offeredInvestors(ask.investors).some((investor) => investor.portfolioid === body.textValue)
      )
        throw AppError.validation(ENGINE_MESSAGES.investorNotOffered, 'textValue');
      const save = body.saveOptionsFlag === true && !canceled && isAnswerSavable(ask.actionType);
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
      await redis.multi().rpush(key, body.textValue).expire(key, ANSWER_TTL_SECONDS).exec();
      return { message: ASK_MESSAGES.answerSent };
    },
  };
}
export type AskService = ReturnType<typeof createAskService>;
