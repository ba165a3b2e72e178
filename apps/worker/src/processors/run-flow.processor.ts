import type { Job } from 'bullmq';
import type { BrowserContext } from 'playwright-core';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import {
  AUTOMATION_CODES,
  AutomationError,
  browserLossBehind,
  classifyError,
  runFlow,
  type FlowResult,
  type KeptFile,
  type NavigationPolicy,
  type StepRecord,
} from '@pagewright/automation';
import type { SecretBox } from '@pagewright/db';
import {
  ASK_MESSAGES,
  InputSubstitutionError,
  declaredInputsOf,
  defaultInputValues,
  fillFlowInputs,
  publishLiveEvent,
  runInputValuesOf,
  runFlowPayloadSchema,
  type FlowAction,
  type SendMailPayload,
} from '@pagewright/shared';
import type { EngineEgress } from '../fengine/engine-policy.js';
import { createEngineSession } from '../fengine/engine-session.js';
import { createAskDuringRun } from '../flows/ask-during-run.js';
import { scheduledAskMail } from '../flows/ask-mail.js';
import type { BrowserPool } from '../browser-pool.js';
import { toFlowAction, type StoredAction } from '../flows/load-flow.js';
import { stepToStore, type RunEnd, type RunPictures, type RunStore } from '../flows/run-store.js';

export interface RunFlowProcessorDeps {
  store: RunStore;
  pool: BrowserPool;
  navigationPolicy: NavigationPolicy;
  /** Where F-engine calls may go (navigation's policy plus FENGINE_ALLOWED_ORIGINS). */
  engineEgress: EngineEgress;
  /** Opens TYPE_PASSWORD secrets; undefined when the worker has no ENCRYPTION_KEY. */
  secrets: SecretBox | undefined;
  redis: Redis;
  keyPrefix: string;
  /** How long an ask waits for its answer before the run stops (ASK_TIMEOUT_SECONDS). */
  askTimeoutMs: number;
  /** The largest value one step may produce (STEP_VALUE_MAX_BYTES). */
  stepValueMaxBytes: number;
  /** Queues an e-mail (QUEUES.mail): a scheduled run's ask is mailed to its owner. */
  sendMail: (mail: SendMailPayload) => Promise<void>;
  /** The dashboard's address in those e-mails (PUBLIC_URL/dashboard). */
  dashboardUrl: string;
  log: Logger;
}

function endOf(result: FlowResult): RunEnd {
  if (result.status !== 'ERROR') return { status: result.status };
  return {
    status: 'ERROR',
    errorCode: result.error?.code ?? AUTOMATION_CODES.UNKNOWN_ERROR,
    errorMessage: result.error?.originalMessage ?? 'The flow failed',
    errorSequence: result.error?.sequence,
  };
}

/**
 * Runs one queued run (QUEUES.runs): the extractor's actions in a fresh browser context with the
 * worker's navigation policy, every step stored as it finishes (screenshots and kept files as
 * StoredFile rows), then the run, the extractor's status and a run-status event.
 */
export function createRunFlowProcessor(deps: RunFlowProcessorDeps) {
  const { store, log } = deps;

  return async function processRunFlow(job: Job): Promise<{ status: string }> {
    const { runId } = runFlowPayloadSchema.parse(job.data);
    const jobLog = log.child({ jobId: job.id, runId });
    const run = await store.loadRun(runId);
    if (!run || run.status !== 'EXECUTING') {
      jobLog.warn({ status: run?.status }, 'run is gone or already ended; nothing to do');
      return { status: run?.status ?? 'MISSING' };
    }
    const rowsBySequence = new Map<number, StoredAction>(
      run.extractor.actions.map((row) => [row.sequence, row]),
    );
    const asks = createAskDuringRun(
      {
        store,
        secrets: deps.secrets,
        redis: deps.redis,
        keyPrefix: deps.keyPrefix,
        timeoutMs: deps.askTimeoutMs,
        log: jobLog,
      },
      {
        runId,
        userId: run.userId,
        extractorId: run.extractorId,
        rowsBySequence,
        // Nobody watches a scheduled run: its owner learns of the question by e-mail.
        onAskOffered:
          run.trigger === 'SCHEDULED'
            ? (_askId, request) =>
                deps.sendMail(
                  scheduledAskMail({
                    to: run.user.email,
                    firstName: run.user.firstName,
                    extractorName: run.extractor.name,
                    question: request.question ?? null,
                    dashboardUrl: deps.dashboardUrl,
                    waitMinutes: Math.round(deps.askTimeoutMs / 60_000),
                  }),
                )
            : undefined,
      },
    );
    const keptFiles = new Map<number, KeptFile[]>();
    let currentSequence: number | undefined;
    let storing: Promise<void> = Promise.resolve();
    let storeFailure: Error | undefined;

    const toStore = (step: StepRecord) => {
      const row = rowsBySequence.get(step.sequence);
      return stepToStore(step, keptFiles.get(step.sequence) ?? [], {
        filePrefix: `run-${runId}`,
        actionId: row?.id ?? null,
        label: row?.label ?? null,
      });
    };
    // Steps wait here while the previous write is under way; the next write takes them all.
    const unstored: StepRecord[] = [];
    const storedPictures: RunPictures = new Map();
    const storeUnstored = async () => {
      const batch = unstored.splice(0);
      await store.saveSteps(runId, run.userId, batch.map(toStore), storedPictures);
    };

    let end: RunEnd;
    let context: BrowserContext | undefined;
    try {
      // The run's input values (a run kept before inputs existed: the defaults) go into the texts
      // and URLs before the browser opens; the URLs then pass the navigation policy as recorded ones do.
      const inputValues = {
        ...defaultInputValues(declaredInputsOf(run.extractor.inputs)),
        ...runInputValuesOf(run.inputs),
      };
      const actions: FlowAction[] = fillFlowInputs(
        run.extractor.actions.map((row) => toFlowAction(row, run.userId, deps.secrets)),
        inputValues,
      );
      context = await deps.pool.newContext();
      const page = await context.newPage();
      jobLog.info({ actions: actions.length, browser: deps.pool.browserNameOf(context) }, 'run started');
      const result = await runFlow(
        page,
        actions,
        {
          ask: asks.ask,
          // Each run signs in to its F-engine through its own asks (saved answers or the dialog).
          engine: createEngineSession({ egress: deps.engineEgress }).hooks,
          onStepStart: (action) => {
            currentSequence = action.sequence;
          },
          keepFile: (file) => {
            // GET_FILE / GET_IMAGE keep one file per step; GET_TABLE one per FILE cell.
            if (currentSequence !== undefined)
              keptFiles.set(currentSequence, [...(keptFiles.get(currentSequence) ?? []), file]);
            return Promise.resolve();
          },
          onStepDone: (step) => {
            jobLog.info(
              {
                sequence: step.sequence,
                type: step.type,
                status: step.status,
                ms: step.durationMs,
                // The run shows the message; Playwright's call log and stack stay here.
                ...(step.error ? { errorCode: step.error.code, errorDetails: step.error.details } : {}),
              },
              'step',
            );
            unstored.push(step);
            storing = storing.then(storeUnstored).catch((error: unknown) => {
              storeFailure ??= error instanceof Error ? error : new Error(String(error));
            });
          },
        },
        {
          navigationPolicy: deps.navigationPolicy,
          egressProxyUrl: await deps.pool.egressProxyUrl(),
          limits: { stepValueMaxBytes: deps.stepValueMaxBytes },
          // A bulk run's item keeps only the picture of a step that failed: 10,000 runs of every
          // step's pictures and HTML would fill the database with what nobody looks at.
          ...(run.bulkRunItem
            ? {
                capturePageScreenshots: false,
                captureElementScreenshots: false,
                captureNormalizedHtml: false,
                captureFailedStepScreenshot: true,
              }
            : {}),
        },
      );
      await storing;
      if (storeFailure) throw storeFailure;
      end = endOf(result);
      // An ask nobody answered stops the flow; the run says why.
      if (end.status === 'STOPPED' && asks.expired()) end.errorMessage = ASK_MESSAGES.expired;
    } catch (error) {
      await storing;
      const classified = classifyError(
        error instanceof InputSubstitutionError
          ? new AutomationError(AUTOMATION_CODES.INVALID_ARGUMENT, error.message, error.sequence)
          : // A browser (host) that went away while the page opened: say so, not Playwright's "Target closed".
            ((await browserLossBehind(context?.browser() ?? null, error)) ?? error),
        currentSequence,
      );
      jobLog.error({ err: error }, 'run failed outside its steps');
      end = {
        status: 'ERROR',
        errorCode: classified.code,
        errorMessage: classified.originalMessage,
        errorSequence: classified.sequence,
      };
    }

    // The run ends for its owner first; closing its browser context is the worker's cleanup.
    const browserName = context ? deps.pool.browserNameOf(context) : undefined;
    const closing = context?.close().catch(() => undefined);
    const ended = await store.finishRun(runId, { ...end, browserName });
    if (ended) {
      end = ended;
      await publishLiveEvent(deps.redis, deps.keyPrefix, run.userId, {
        type: 'run-status',
        extractorId: run.extractorId,
        runId,
        status: end.status,
        ...(end.errorMessage ? { errorMessage: end.errorMessage } : {}),
      });
    }
    jobLog.info({ status: end.status, errorCode: end.errorCode }, 'run finished');
    await closing;
    return { status: end.status };
  };
}
