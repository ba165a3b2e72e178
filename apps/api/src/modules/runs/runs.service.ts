import type { FastifyBaseLogger } from 'fastify';
import type { RunStarter } from '@pagewright/db';
import {
  MESSAGES,
  RUN_MESSAGES,
  declaredInputsOf,
  resolveInputValues,
  runInputValuesOf,
  type RunInputValues,
  elementLocatedBySchema,
  stepValueSchema,
  type ElementLocatedBy,
  type ExecuteExtractorResponse,
  type RunDetail,
  type RunStepScreenshotKind,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import type { RunsQueue } from '../../plugins/queues.js';
import type { RunRepository } from './runs.repository.js';

export interface StoredFileContent {
  name: string;
  mimeType: string;
  content: Buffer;
}

/** A step's stored fallback notice, if it reads as one (older rows have none). */
function locatedByOf(stored: unknown): ElementLocatedBy | null {
  const parsed = elementLocatedBySchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

/** Execute (automation spec §7) and reading a run step by step; always scoped to the caller. */
export function createRunService(deps: {
  runs: RunRepository;
  /** Execute starts runs the way a scheduler's firing does (packages/db's run starter). */
  starter: RunStarter;
  queue: RunsQueue;
  log: FastifyBaseLogger;
}) {
  const { runs, starter, queue, log } = deps;

  /** Whether a worker takes runs now; a Redis that cannot say counts as none. */
  async function hasLiveWorker(): Promise<boolean> {
    try {
      return (await queue.getWorkers()).length > 0;
    } catch (error) {
      log.warn({ err: error }, 'could not list the run workers');
      return false;
    }
  }

  async function ownedFile(userId: string, fileId: string | null): Promise<StoredFileContent> {
    const file = fileId ? await runs.findOwnedFile(userId, fileId) : null;
    if (!file) throw AppError.notFound();
    return { name: file.name, mimeType: file.mimeType, content: file.content };
  }

  return {
    /**
     * Execute, with values for the extractor's inputs (none: the defaults). A value of the wrong
     * type or an input the extractor does not declare refuses the run (400 naming the input).
     */
    async execute(
      userId: string,
      extractorId: string,
      given: RunInputValues = {},
    ): Promise<ExecuteExtractorResponse> {
      const extractor = await runs.findOwnedExtractorInputs(userId, extractorId);
      if (!extractor) throw AppError.notFound();
      const inputs = resolveInputValues(declaredInputsOf(extractor.inputs), given);
      if (!inputs.ok) throw AppError.validation(inputs.message, `inputs.${inputs.name}`);
      const result = await starter.start({ userId, extractorId, inputs: inputs.values });
      if (!result.started) {
        switch (result.refusal) {
          case 'NO_ACTIONS':
            throw new AppError('CONFLICT', MESSAGES['extractor.execute.no.actions']);
          case 'PENDING_ASK':
            throw new AppError('CONFLICT', MESSAGES['extractor.pending.ask']);
          case 'EXECUTING':
            throw new AppError('CONFLICT', RUN_MESSAGES.alreadyExecuting);
          case 'QUEUE_UNAVAILABLE':
            log.error({ err: result.cause, extractorId }, 'could not queue a run; Execute refused');
            throw new AppError('SERVICE_UNAVAILABLE', RUN_MESSAGES.queueUnavailable);
          // A navigator has no Execute, and only schedulers fire: both answer as a missing one.
          case 'NOT_FOUND':
          case 'NOT_EXECUTABLE':
          case 'ALREADY_FIRED':
            throw AppError.notFound();
        }
      }
      const waitingForWorker = !(await hasLiveWorker());
      if (waitingForWorker) log.warn({ runId: result.runId }, 'run queued while no worker is running');
      return { runId: result.runId, status: 'EXECUTING', waitingForWorker };
    },

    async get(userId: string, runId: string): Promise<RunDetail> {
      const run = await runs.findOwnedRun(userId, runId);
      if (!run) throw AppError.notFound();
      return {
        id: run.id,
        extractorId: run.extractorId,
        status: run.status,
        trigger: run.trigger,
        startedAt: run.startedAt.toISOString(),
        finishedAt: run.finishedAt?.toISOString() ?? null,
        errorCode: run.errorCode,
        errorMessage: run.errorMessage,
        errorSequence: run.errorSequence,
        waitingForWorker: run.status === 'EXECUTING' && run.jobId !== null && !(await hasLiveWorker()),
        inputs: runInputValuesOf(run.inputs),
        browserName: run.browserName,
        steps: run.steps.map((step) => {
          const value = stepValueSchema.safeParse(step.value);
          return {
            sequence: step.sequence,
            actionType: step.actionType,
            label: step.label,
            pageUrl: step.pageUrl,
            timestamp: step.timestamp.toISOString(),
            value: value.success ? value.data : null,
            errorMessage: step.errorMessage,
            locatedBy: locatedByOf(step.locatedBy),
            hasPageScreenshot: step.pageScreenshotFileId !== null,
            hasElementScreenshot: step.elementScreenshotFileId !== null,
            hasNormalizedHtml: step.hasNormalizedHtml,
            fileName: step.file?.name ?? null,
            tableFiles: step.tableFiles.map((cell) => ({
              row: cell.rowIndex,
              column: cell.columnIndex,
              fileName: cell.file.name,
            })),
          };
        }),
      };
    },

    /**
     * POST /extractor/run/:runId/step/:sequence/locator: the selector a fallback found in that run
     * becomes the step's own locator (issue 22, "use this locator from now on").
     */
    async adoptLocator(userId: string, runId: string, sequence: number): Promise<string> {
      const step = await runs.findOwnedStepLocator(userId, runId, sequence);
      if (!step) throw AppError.notFound();
      const locatedBy = locatedByOf(step.locatedBy);
      if (!locatedBy || !step.actionId) throw new AppError('CONFLICT', RUN_MESSAGES.noLocatorToAdopt);
      if (!(await runs.adoptLocator(userId, step.actionId, locatedBy.selectorValue, locatedBy.xpathValue)))
        throw new AppError('CONFLICT', RUN_MESSAGES.noLocatorToAdopt);
      return RUN_MESSAGES.locatorAdopted.replace('{{selector}}', locatedBy.selectorValue);
    },

    async screenshot(
      userId: string,
      runId: string,
      sequence: number,
      kind: RunStepScreenshotKind,
    ): Promise<StoredFileContent> {
      const step = await runs.findOwnedStep(userId, runId, sequence);
      if (!step) throw AppError.notFound();
      return ownedFile(userId, kind === 'page' ? step.pageScreenshotFileId : step.elementScreenshotFileId);
    },

    async normalizedHtml(userId: string, runId: string, sequence: number): Promise<string> {
      const step = await runs.findOwnedStep(userId, runId, sequence);
      if (step?.normalizedHtml == null) throw AppError.notFound();
      return step.normalizedHtml;
    },

    /** The step's file, or with a cell the file of that FILE cell of its table. */
    async file(
      userId: string,
      runId: string,
      sequence: number,
      cell?: { row: number; column: number },
    ): Promise<StoredFileContent> {
      if (cell)
        return ownedFile(
          userId,
          await runs.findOwnedCellFileId(userId, runId, sequence, cell.row, cell.column),
        );
      const step = await runs.findOwnedStep(userId, runId, sequence);
      if (!step) throw AppError.notFound();
      return ownedFile(userId, step.fileId);
    },
  };
}
export type RunService = ReturnType<typeof createRunService>;
