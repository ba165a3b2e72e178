import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import {
  AUTOMATION_CODES,
  classifyError,
  elementAtPoint,
  pageElementAreas,
  runFlow,
  wheelAt,
  type AutomationError,
  type KeptFile,
  type NavigationPolicy,
  type StepRecord,
} from '@pagewright/automation';
import type { SecretBox } from '@pagewright/db';
import {
  ASK_ACTION_TYPES,
  ENGINE_SIGN_IN_ASK_TYPES,
  ASK_MESSAGES,
  AUTOMATION_ERRORS,
  BUILDER_DRAFT_TTL_MS,
  automationErrorText,
  PAGE_DIALOG_ANSWER_TIMEOUT_MS,
  builderImageKey,
  publishLiveEvent,
  sessionCommandSchema,
  type DialogAnswer,
  type ExecuteResult,
  type FlowAction,
  type PageDialog,
  type ReplayResult,
  type SealedSecretJson,
  type SessionCommand,
  type SessionCommandAnswer,
  type SessionCommandName,
  type SessionCommandOf,
  type SessionFailure,
  type StepValue,
  type ValidateProgress,
  type ValidateResult,
} from '@pagewright/shared';
import type { BrowserPool } from '../browser-pool.js';
import type { EngineEgress } from '../fengine/engine-policy.js';
import { createEngineSession } from '../fengine/engine-session.js';
import { createAskDuringRun } from '../flows/ask-during-run.js';
import { stepToStore, type RunStore } from '../flows/run-store.js';
import type { LiveSession, LiveSessionRegistry } from '../sessions/live-session-registry.js';
import type { LiveViews } from '../sessions/live-view.js';

export interface SessionCommandDeps {
  workerId: string;
  sessions: LiveSessionRegistry;
  views: LiveViews;
  pool: BrowserPool;
  store: RunStore;
  secrets: SecretBox | undefined;
  redis: Redis;
  keyPrefix: string;
  askTimeoutMs: number;
  navigationPolicy: NavigationPolicy;
  /** Where F-engine calls may go (navigation's policy plus FENGINE_ALLOWED_ORIGINS). */
  engineEgress: EngineEgress;
  /** The largest value one step may produce (STEP_VALUE_MAX_BYTES). */
  stepValueMaxBytes: number;
  log: Logger;
}

const RELOAD_TIMEOUT_MS = 30_000;
/** A page read while it navigates is read again after its load, this many times in all. */
const AREAS_ATTEMPTS = 3;
const base64 = (bytes: Buffer | undefined) => (bytes ? bytes.toString('base64') : null);

function failure(reason: SessionFailure['reason'], message: string, error?: AutomationError): SessionFailure {
  return {
    ok: false,
    reason,
    message,
    code: error?.code ?? null,
    name: error ? (AUTOMATION_ERRORS[error.code] ?? null) : null,
  };
}

const ENGINE_ASK_TYPES: readonly string[] = [...ENGINE_SIGN_IN_ASK_TYPES, 'ASK_F_ENGINE_INVESTOR'];

const sessionLost = () => failure('SESSION_LOST', 'The live session is no longer open on its worker.');

/** The commands to a session's page (`open` and `close` come first: they need no page). */
type PageCommandName = Exclude<SessionCommandName, 'open' | 'close'>;
/** What each page command does, answering what its result schema (SESSION_COMMANDS) accepts. */
type PageCommandHandlers = {
  [Name in PageCommandName]: (
    session: LiveSession,
    command: SessionCommandOf<Name>,
    context: { job: Job; log: Logger },
  ) => Promise<SessionCommandAnswer<Name>>;
};

/**
 * Commands to the live builder / navigator sessions of this worker (docs/automation-runtime.md
 * "Commands to the worker that owns a session"). Every command names its session and its owner;
 * a session of another user, or one this worker no longer holds, answers SESSION_LOST.
 */
export function createSessionCommandProcessor(deps: SessionCommandDeps) {
  const { sessions, log } = deps;
  /** The running validation of each session, by session id: a `stop` command aborts it. */
  const validations = new Map<string, AbortController>();

  function openSecret(sealed: SealedSecretJson | null, context: string | null): string | undefined {
    if (!sealed || !context) return undefined;
    if (!deps.secrets) throw new Error('this worker has no ENCRYPTION_KEY to open secrets with');
    return deps.secrets.open(
      {
        ciphertext: Buffer.from(sealed.ciphertext, 'base64'),
        iv: Buffer.from(sealed.iv, 'base64'),
        authTag: Buffer.from(sealed.authTag, 'base64'),
      },
      context,
    );
  }

  function withSecret(step: FlowAction, secret: string | undefined): FlowAction {
    return secret === undefined ? step : { ...step, options: { ...step.options, text: secret } };
  }

  /**
   * A dialog the live page opened while a step ran: shown over the operator's page view (a live
   * event), answered by the `answerDialog` command. No answer in time dismisses it.
   */
  function askOperator(session: LiveSession, dialog: PageDialog): Promise<DialogAnswer | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle(undefined), PAGE_DIALOG_ANSWER_TIMEOUT_MS);
      timer.unref();
      const settle = (answer: DialogAnswer | undefined) => {
        clearTimeout(timer);
        if (session.pendingDialog?.answer === settle) session.pendingDialog = undefined;
        resolve(answer);
      };
      session.pendingDialog?.answer(undefined);
      session.pendingDialog = { dialog, answer: settle };
      void publishLiveEvent(deps.redis, deps.keyPrefix, session.userId, {
        type: 'page-dialog',
        sessionId: session.id,
        dialog,
      }).catch((error: unknown) => {
        log.warn({ err: error, sessionId: session.id }, 'could not show a page dialog');
        settle(undefined);
      });
    });
  }

  async function execute(
    session: LiveSession,
    command: Extract<SessionCommand, { command: 'execute' }>,
  ): Promise<ExecuteResult | SessionFailure> {
    const step = withSecret(command.step, openSecret(command.sealedSecret, command.secretContext));
    const previousValues = new Map<number, StepValue>(
      Object.entries(command.previousValues).map(([sequence, value]) => [Number(sequence), value]),
    );
    const kept: KeptFile[] = [];
    // The recording's F-engine: its sign-in asks sign in once, the investor ask and the field
    // steps after it use that session (docs/f-engine.md).
    const engine = (session.engine ??= createEngineSession({ egress: deps.engineEgress }));
    const result = await runFlow(
      session.page,
      [step],
      {
        // While recording, an ask types what the operator gave with the action (nothing if none).
        ask: () => Promise.resolve(command.answer ?? ''),
        engine: engine.hooks,
        keepFile: (file) => {
          kept.push(file);
          return Promise.resolve();
        },
        onDialog: (dialog) => askOperator(session, dialog),
      },
      {
        navigationPolicy: deps.navigationPolicy,
        egressProxyUrl: await deps.pool.egressProxyUrl(),
        limits: { stepValueMaxBytes: deps.stepValueMaxBytes },
        previousValues,
        // The HTML is kept only with a screen-share step; the builder's answer does not carry it.
        captureNormalizedHtml: Boolean(command.recordToRunId),
      },
    );
    const record = result.steps[0];
    if (command.recordToRunId && record) {
      await storeSharedStep(session, command.recordToRunId, record, kept).catch((error: unknown) =>
        log.warn({ err: error, runId: command.recordToRunId }, 'could not store a screen-share step'),
      );
    }
    if (result.status === 'ERROR' || !record) {
      const error = result.error ?? classifyError(new Error('The action did not run'), step.sequence);
      log.info(
        {
          sessionId: session.id,
          sequence: step.sequence,
          errorCode: error.code,
          errorDetails: error.details,
        },
        'builder step failed',
      );
      return failure('AUTOMATION', error.originalMessage, error);
    }
    // Signed in by this step: the investor dialog that comes next lists the engine's investors.
    if (ENGINE_SIGN_IN_ASK_TYPES.includes(step.type) && engine.isSignedIn()) {
      try {
        await engine.hooks.investors();
      } catch (error) {
        return failure('AUTOMATION', error instanceof Error ? error.message : String(error));
      }
    }
    return {
      ok: true,
      value: record.value,
      pageUrl: record.pageUrl,
      timestamp: record.timestamp,
      pageScreenshot: base64(record.pageScreenshot),
      elementScreenshot: base64(record.elementScreenshot),
      dialogs: record.dialogs ?? [],
      ...engine.snapshot(),
    };
  }

  /** Navigators: each step recorded live is also a step of the run the screen share shows. */
  async function storeSharedStep(
    session: LiveSession,
    runId: string,
    step: StepRecord,
    files: readonly KeptFile[],
  ): Promise<void> {
    await deps.store.saveStep(
      runId,
      session.userId,
      stepToStore(step, files, { filePrefix: `share-${runId}`, actionId: null, label: null }),
    );
  }

  /**
   * Keeps a validated step's pictures as its draft action's pictures (the API reads them from
   * there). A step without an element picture drops the one an earlier run left.
   */
  async function storeDraftPictures(
    userId: string,
    draftActionId: string,
    step: StepRecord,
  ): Promise<{ page: boolean; element: boolean }> {
    const key = (kind: 'page' | 'element') => builderImageKey(deps.keyPrefix, userId, draftActionId, kind);
    const pipeline = deps.redis.pipeline();
    if (step.pageScreenshot) pipeline.set(key('page'), step.pageScreenshot, 'PX', BUILDER_DRAFT_TTL_MS);
    if (step.elementScreenshot)
      pipeline.set(key('element'), step.elementScreenshot, 'PX', BUILDER_DRAFT_TTL_MS);
    else pipeline.del(key('element'));
    await pipeline.exec();
    return { page: Boolean(step.pageScreenshot), element: Boolean(step.elementScreenshot) };
  }

  async function validate(
    job: Job,
    session: LiveSession,
    command: Extract<SessionCommand, { command: 'validate' }>,
  ): Promise<ValidateResult | SessionFailure> {
    const stop = new AbortController();
    validations.get(session.id)?.abort();
    validations.set(session.id, stop);
    const steps = command.steps.map((entry) =>
      withSecret(entry.step, openSecret(entry.sealedSecret, entry.secretContext)),
    );
    const draftIds = new Map(command.steps.map((entry) => [entry.step.sequence, entry.draftActionId]));
    const asks = createAskDuringRun(
      {
        store: deps.store,
        secrets: deps.secrets,
        redis: deps.redis,
        keyPrefix: deps.keyPrefix,
        timeoutMs: deps.askTimeoutMs,
        log,
      },
      {
        runId: command.runId,
        userId: command.userId,
        extractorId: command.extractorId,
        signal: stop.signal,
        rowsBySequence: new Map(
          command.steps.map((entry) => [
            entry.step.sequence,
            { id: entry.actionId, label: entry.step.label ?? null },
          ]),
        ),
      },
    );
    const report = (progress: ValidateProgress) => {
      void job.updateProgress(progress).catch(() => undefined);
      void publishLiveEvent(deps.redis, deps.keyPrefix, command.userId, {
        type: 'validation-progress',
        extractorId: command.extractorId,
        ...progress,
      }).catch(() => undefined);
    };

    session.isBusy = true;
    try {
      // A run starts from a fresh context (no cookies of the recording); the builder then goes on
      // from where the validation left the page, so the fresh context replaces the old one.
      const context = await deps.pool.newContext();
      const page = await context.newPage();
      await sessions.replaceContext(session, context, page);
      // Each step's pictures go straight to the draft's picture keys as the step is recorded:
      // the answer carries flags, not 40 base64 JPEGs through the queue and the API.
      const pictureWrites = new Map<number, Promise<{ page: boolean; element: boolean }>>();
      const result = await runFlow(
        page,
        steps,
        {
          ask: asks.ask,
          signal: stop.signal,
          // A validation signs in as a run does: through its own asks, not the recording's session.
          engine: createEngineSession({ egress: deps.engineEgress }).hooks,
          onStepStart: (step, index, total) =>
            report({
              progress: Math.round((index / Math.max(total, 1)) * 100),
              actionType: step.type,
              sequence: step.sequence,
            }),
          onStepDone: (step) => {
            const draftActionId = draftIds.get(step.sequence);
            if (draftActionId && step.status !== 'SKIPPED')
              pictureWrites.set(step.sequence, storeDraftPictures(command.userId, draftActionId, step));
          },
        },
        // A validation answers with statuses and pictures; the HTML would be read and dropped.
        {
          navigationPolicy: deps.navigationPolicy,
          egressProxyUrl: await deps.pool.egressProxyUrl(),
          limits: { stepValueMaxBytes: deps.stepValueMaxBytes },
          captureNormalizedHtml: false,
        },
      );
      if (result.error)
        log.info(
          {
            sessionId: session.id,
            runId: command.runId,
            sequence: result.error.sequence,
            errorCode: result.error.code,
            errorDetails: result.error.details,
          },
          'validation step failed',
        );
      const last = steps.at(-1);
      report({ progress: 100, actionType: last?.type ?? 'END', sequence: last?.sequence ?? 0 });
      return {
        ok: true,
        status: result.status,
        errorSequence: result.error?.sequence ?? null,
        errorMessage: result.error?.originalMessage ?? (asks.expired() ? ASK_MESSAGES.expired : null),
        errorCode: result.error?.code ?? null,
        steps: await Promise.all(
          result.steps.map(async (step) => {
            const stored = await pictureWrites.get(step.sequence);
            return {
              sequence: step.sequence,
              status: step.status,
              pageUrl: step.pageUrl,
              timestamp: step.timestamp,
              hasPageScreenshot: stored?.page ?? false,
              hasElementScreenshot: stored?.element ?? false,
            };
          }),
        ),
      };
    } finally {
      session.isBusy = false;
      if (validations.get(session.id) === stop) validations.delete(session.id);
    }
  }

  /**
   * Replays the steps before `untilSequence` on a fresh context of the session (as a validation
   * starts), so the live page is where that step found it. Nothing is stored: no pictures, no run.
   * An ask stops the replay before it: its answer is the operator's to give.
   */
  async function replay(
    session: LiveSession,
    command: Extract<SessionCommand, { command: 'replay' }>,
  ): Promise<ReplayResult | SessionFailure> {
    const until = command.untilSequence;
    const wanted = command.steps
      .map((entry) => withSecret(entry.step, openSecret(entry.sealedSecret, entry.secretContext)))
      .filter((step) => until === null || step.sequence < until)
      // The F-engine asks change no page: the recording's engine session stays as it is.
      .filter((step) => !ENGINE_ASK_TYPES.includes(step.type))
      .sort((a, b) => a.sequence - b.sequence);
    const firstAsk = wanted.findIndex((step) => ASK_ACTION_TYPES.includes(step.type));
    const steps = firstAsk === -1 ? wanted : wanted.slice(0, firstAsk);
    session.isBusy = true;
    try {
      const context = await deps.pool.newContext();
      const page = await context.newPage();
      await sessions.replaceContext(session, context, page);
      const result = await runFlow(
        page,
        steps,
        { ask: () => Promise.resolve(''), ...(session.engine ? { engine: session.engine.hooks } : {}) },
        {
          navigationPolicy: deps.navigationPolicy,
          egressProxyUrl: await deps.pool.egressProxyUrl(),
          limits: { stepValueMaxBytes: deps.stepValueMaxBytes },
          capturePageScreenshots: false,
          captureElementScreenshots: false,
          captureNormalizedHtml: false,
        },
      );
      const done = result.steps.filter((step) => step.status === 'SUCCESS').at(-1);
      const askedAt = firstAsk === -1 ? null : (wanted[firstAsk]?.sequence ?? null);
      return {
        ok: true,
        status: result.status,
        reachedSequence: done?.sequence ?? null,
        stoppedAt: result.error?.sequence ?? askedAt,
        message: result.error ? automationErrorText(result.error.code, result.error.originalMessage) : null,
      };
    } finally {
      session.isBusy = false;
    }
  }

  async function image(session: LiveSession) {
    const frame = deps.views.latestFrame(session.id);
    if (frame)
      return {
        ok: true as const,
        image: frame.data,
        pageUrl: session.page.url(),
        width: frame.width,
        height: frame.height,
      };
    const shot = await session.page.screenshot({ type: 'jpeg', quality: 70, timeout: 5_000 });
    const viewport = session.page.viewportSize() ?? { width: 0, height: 0 };
    return { ok: true as const, image: shot.toString('base64'), pageUrl: session.page.url(), ...viewport };
  }

  /**
   * The page's element areas; a page that is navigating (its document replaced while it was
   * read, as a recorded click's next page loads) is read again once it has loaded, instead of
   * answering the builder's hover read with an error.
   */
  async function areasOf(page: LiveSession['page']) {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await pageElementAreas(page);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (attempt >= AREAS_ATTEMPTS || !/context was destroyed|navigat/iu.test(message)) throw error;
        await page.waitForLoadState('load', { timeout: 5_000 }).catch(() => undefined);
      }
    }
  }

  async function pageAreas(session: LiveSession, reload: boolean) {
    if (reload) await session.page.reload({ waitUntil: 'load', timeout: RELOAD_TIMEOUT_MS });
    const [areas, shot] = await Promise.all([
      areasOf(session.page),
      session.page.screenshot({ type: 'jpeg', quality: 70, timeout: 5_000 }).catch(() => undefined),
    ]);
    return { ok: true as const, pageUrl: session.page.url(), areas, pageScreenshot: base64(shot) };
  }

  async function maskPreview(
    session: LiveSession,
    command: Extract<SessionCommand, { command: 'maskPreview' }>,
  ) {
    const target = {
      selectorType: 'CSS' as const,
      selectorValue: command.selectorValue,
      framePath: [],
      fallbackLocators: [],
    };
    const read: FlowAction[] = [
      { sequence: 0, type: 'GET_TEXT', target, options: {} },
      command.numberMask
        ? { sequence: 1, type: 'GET_NUMBER', target, options: { numberFormat: command.numberMask } }
        : {
            sequence: 1,
            type: 'GET_DATE',
            target,
            options: { ...(command.dateMask ? { datetimeFormat: command.dateMask } : {}) },
          },
    ];
    const result = await runFlow(
      session.page,
      read,
      { ask: () => Promise.resolve('') },
      {
        navigationPolicy: deps.navigationPolicy,
        capturePageScreenshots: false,
        captureElementScreenshots: false,
        limits: { elementTimeoutMs: 3_000 },
      },
    );
    if (result.status !== 'SUCCESS') {
      const error = result.error;
      return failure('AUTOMATION', error?.originalMessage ?? 'The mask could not be applied', error);
    }
    const text = result.values[0];
    const value = result.values[1];
    if (text?.kind !== 'text' || (value?.kind !== 'number' && value?.kind !== 'datetime'))
      return failure('AUTOMATION', 'The element has no value this mask reads');
    return { ok: true as const, text: text.value, value: value.value };
  }

  const onPage: PageCommandHandlers = {
    execute: (session, command) => execute(session, command),
    validate: (session, command, { job }) => validate(job, session, command),
    replay: (session, command) => replay(session, command),
    stop: async (session, _command, context) => {
      const validation = validations.get(session.id);
      validation?.abort();
      if (validation) context.log.info({ sessionId: session.id }, 'validation stopped');
      return { ok: true, stopped: validation !== undefined };
    },
    answerDialog: async (session, command) => {
      const pending = session.pendingDialog;
      pending?.answer(command.answer);
      return { ok: true, answered: pending !== undefined };
    },
    evaluatePoint: async (session, command) => {
      const element = await elementAtPoint(session.page, command.point);
      return element
        ? { ok: true, ...element, selector: element.selectorValue }
        : failure('NO_ELEMENT', 'There is no element at this point of the page.');
    },
    lookAround: async (session, command) => {
      await wheelAt(session.page, command.point, command.deltaY);
      return { ok: true };
    },
    pageAreas: (session, command) => pageAreas(session, command.reload),
    image: (session) => image(session),
    maskPreview: (session, command) => maskPreview(session, command),
  };

  /** The page command's handler, by its name (one map: a command without one is a type error). */
  function onPageCommand<Name extends PageCommandName>(
    name: Name,
    session: LiveSession,
    command: SessionCommandOf<Name>,
    context: { job: Job; log: Logger },
  ): Promise<SessionCommandAnswer<Name>> {
    return onPage[name](session, command, context);
  }

  return async function processSessionCommand(job: Job): Promise<SessionCommandAnswer<SessionCommandName>> {
    const parsed = sessionCommandSchema.safeParse(job.data);
    if (!parsed.success) return failure('INVALID', `Malformed session command: ${parsed.error.message}`);
    const command = parsed.data;
    const jobLog = log.child({ jobId: job.id, command: command.command });

    if (command.command === 'open') {
      const session = await sessions.open(command.userId);
      jobLog.info({ sessionId: session.id }, 'live session opened');
      return { ok: true, workerId: deps.workerId, sessionId: session.id };
    }
    if (command.command === 'close') {
      await deps.views.detach(command.sessionId);
      await sessions.close(command.sessionId, command.userId);
      return { ok: true };
    }

    const session =
      command.command === 'image' && command.isPassive
        ? sessions.peek(command.sessionId, command.userId)
        : sessions.use(command.sessionId, command.userId);
    if (!session) return sessionLost();
    try {
      return await onPageCommand(command.command, session, command, { job, log: jobLog });
    } catch (error) {
      if (session.page.isClosed()) return sessionLost();
      const classified = classifyError(error, undefined);
      jobLog.warn({ err: error }, 'session command failed');
      return failure(
        classified.code === AUTOMATION_CODES.UNKNOWN_ERROR ? 'INVALID' : 'AUTOMATION',
        classified.originalMessage,
        classified,
      );
    }
  };
}
