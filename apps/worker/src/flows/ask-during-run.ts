import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { AskRequest } from '@pagewright/automation';
import {
  ASK_CANCELED,
  RECAPTCHA_DONE,
  askAnswerKey,
  isAnswerSavable,
  publishLiveEvent,
} from '@pagewright/shared';
import { actionSecretContext, type SecretBox } from '@pagewright/db';
import type { StoredAction } from './load-flow.js';
import type { RunStore } from './run-store.js';

export interface AskDuringRunDeps {
  store: RunStore;
  secrets: SecretBox | undefined;
  redis: Redis;
  keyPrefix: string;
  /** How long an ask waits for its answer (ASK_TIMEOUT_SECONDS). */
  timeoutMs: number;
  log: Logger;
}

export interface AskRun {
  runId: string;
  userId: string;
  extractorId: string;
  /** The run's actions by sequence (an ask names its action and label). */
  rowsBySequence: ReadonlyMap<number, AskRunRow>;
  /** Aborting cancels the ask being waited on (a validation whose request went away). */
  signal?: AbortSignal;
  /**
   * Called once per new ask, after the dialog was offered: a scheduled run (nobody watching) has
   * its owner e-mailed. A failure here is logged; the ask waits all the same.
   */
  onAskOffered?: (askId: string, request: AskRequest) => Promise<void>;
}

interface AskRunRow {
  id: string | null;
  label: StoredAction['label'];
}

/**
 * hooks.ask of one run (docs/automation-runtime.md "Ask steps"): the answer saved for the action
 * ("save for next time") when there is one; otherwise a PendingAsk, a `pending-ask` live event and
 * a BLPOP on the ask's answer list, on a connection of its own (BLPOP blocks it), until the ask
 * expires. An unanswered ask answers 'CANCELED' (the flow stops) and `expired()` turns true.
 */
export function createAskDuringRun(deps: AskDuringRunDeps, run: AskRun) {
  let expired = false;

  async function savedAnswer(actionId: string): Promise<string | undefined> {
    if (!deps.secrets) return undefined;
    const saved = await deps.store.findSavedSecret(run.userId, actionId);
    if (!saved) return undefined;
    try {
      return deps.secrets.open(
        {
          ciphertext: Buffer.from(saved.ciphertext),
          iv: Buffer.from(saved.iv),
          authTag: Buffer.from(saved.authTag),
        },
        actionSecretContext(run.userId, actionId),
      );
    } catch {
      deps.log.warn({ runId: run.runId, actionId }, 'a saved answer does not open; asking instead');
      return undefined;
    }
  }

  async function waitForAnswer(askId: string, expiresAt: Date): Promise<string | undefined> {
    const connection = deps.redis.duplicate();
    try {
      const key = askAnswerKey(deps.keyPrefix, askId);
      for (;;) {
        const remainingMs = expiresAt.getTime() - Date.now();
        if (remainingMs <= 0) return undefined;
        // 0 would block forever: wait at least a second, at most what is left.
        const answer = await connection.blpop(key, Math.max(1, Math.ceil(remainingMs / 1000)));
        if (answer) return answer[1];
      }
    } finally {
      connection.disconnect();
    }
  }

  /** ASK_RECAPTCHA keeps one PendingAsk per step while its rounds go on; by sequence. */
  const openRecaptchaAsks = new Map<number, string>();

  function screenshotOf(request: AskRequest) {
    return (
      request.elementScreenshot && {
        name: `run-${run.runId}-ask-${request.sequence}-element.png`,
        mimeType: 'image/png',
        content: request.elementScreenshot,
      }
    );
  }

  /** The PendingAsk offered for this request: a new one, or the step's reCAPTCHA ask refreshed. */
  async function offer(request: AskRequest, row: AskRunRow | undefined, expiresAt: Date): Promise<string> {
    const ongoing = request.round ? openRecaptchaAsks.get(request.sequence) : undefined;
    if (ongoing) {
      await deps.store.refreshPendingAsk(ongoing, {
        userId: run.userId,
        elementScreenshot: screenshotOf(request),
        normalizedElements: request.areas ?? [],
        expiresAt,
      });
      return ongoing;
    }
    const askId = await deps.store.createPendingAsk({
      runId: run.runId,
      userId: run.userId,
      actionId: row?.id ?? null,
      actionType: request.type,
      label: request.label ?? row?.label ?? null,
      questionText: request.question ?? null,
      elementScreenshot: screenshotOf(request),
      askMultiStepDto: request.askDataContentSelector
        ? { builderStep: 'USER_RESPONSE', askDataContentSelector: request.askDataContentSelector }
        : null,
      normalizedElements: request.areas ?? null,
      investors: request.investors ?? null,
      expiresAt,
    });
    if (request.type === 'ASK_RECAPTCHA') openRecaptchaAsks.set(request.sequence, askId);
    return askId;
  }

  async function ask(request: AskRequest): Promise<string> {
    const row = run.rowsBySequence.get(request.sequence);
    const actionId = row?.id ?? null;
    // A saved answer stands in for a typed one; a captcha has to be solved every time.
    if (actionId && isAnswerSavable(request.type)) {
      const saved = await savedAnswer(actionId);
      if (saved !== undefined) return saved;
    }
    const expiresAt = new Date(Date.now() + deps.timeoutMs);
    const isNewAsk = !(request.round && openRecaptchaAsks.has(request.sequence));
    const askId = await offer(request, row, expiresAt);
    await publishLiveEvent(deps.redis, deps.keyPrefix, run.userId, {
      type: 'pending-ask',
      extractorId: run.extractorId,
      askId,
      actionType: request.type,
    });
    deps.log.info({ runId: run.runId, askId, sequence: request.sequence }, 'waiting for an answer');
    if (isNewAsk && run.onAskOffered)
      await run
        .onAskOffered(askId, request)
        .catch((error: unknown) =>
          deps.log.warn({ err: error, runId: run.runId, askId }, 'could not tell the owner about an ask'),
        );

    // A stopped run answers its own ask CANCELED, as the ask dialog's Cancel does.
    const key = askAnswerKey(deps.keyPrefix, askId);
    const cancel = () =>
      void deps.redis
        .multi()
        .rpush(key, ASK_CANCELED)
        .expire(key, Math.ceil(deps.timeoutMs / 1000))
        .exec()
        .catch((error: unknown) => deps.log.warn({ err: error, askId }, 'could not cancel an ask'));
    if (run.signal?.aborted) cancel();
    else run.signal?.addEventListener('abort', cancel, { once: true });
    let answer: string | undefined;
    try {
      answer = await waitForAnswer(askId, expiresAt);
    } catch (error) {
      // The run fails; its ask must not stay PENDING (it would block the next Execute).
      await deps.store.endPendingAsk(askId, 'CANCELED').catch(() => undefined);
      throw error;
    } finally {
      run.signal?.removeEventListener('abort', cancel);
    }
    if (answer === undefined) {
      expired = true;
      await deps.store.endPendingAsk(askId, 'EXPIRED');
      return ASK_CANCELED;
    }
    // A picked reCAPTCHA area leaves the ask open: the next round refreshes it.
    const isAreaPick =
      request.type === 'ASK_RECAPTCHA' && answer !== RECAPTCHA_DONE && answer !== ASK_CANCELED;
    if (!isAreaPick) {
      openRecaptchaAsks.delete(request.sequence);
      await deps.store.endPendingAsk(askId, answer === ASK_CANCELED ? 'CANCELED' : 'ANSWERED');
    }
    return answer;
  }

  return { ask, expired: () => expired };
}
