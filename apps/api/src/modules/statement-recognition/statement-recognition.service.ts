import type { FastifyBaseLogger } from 'fastify';
import type { QueueEvents } from 'bullmq';
import {
  MESSAGES,
  RECOGNITION_JOBS,
  addJob,
  isPdfRefusal,
  looksLikePdf,
  parseJobResult,
  templateMismatchText,
  toRecognitionCsv,
  type JobResult,
  type RecognitionResult,
  type RecognizedValue,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import { isRedisUnavailable } from '../../lib/redis-fail-fast.js';
import type { RecognitionQueue } from '../../plugins/queues.js';
import type { RecognitionRepository } from './statement-recognition.repository.js';

/**
 * Reading statements with a template (data spec §4, §7). Each upload becomes a job on the
 * recognition queue, which the worker runs in a pool of child processes (one a core); the call
 * waits for its job, so a screen sending several files at once keeps every core busy and shows
 * each file as it finishes.
 */
export function createRecognitionService(deps: {
  recognition: RecognitionRepository;
  queue: RecognitionQueue;
  events: QueueEvents;
  waitMs: number;
  /** The job's BullMQ priority from its user's jobs in flight (fair shares, issue 24). */
  priorityOf: (userId: string, jobId: string) => Promise<number>;
  log: FastifyBaseLogger;
}) {
  const { recognition, queue, events, waitMs, priorityOf, log } = deps;

  async function valuesOf(userId: string, tokens: readonly string[]): Promise<RecognizedValue[]> {
    const values = await recognition.values(userId, tokens);
    if (!values) throw AppError.notFound(MESSAGES['recognition.token.unknown']);
    return values;
  }

  return {
    async pdfToText(
      userId: string,
      templateId: string,
      file: { name: string; content: Buffer },
    ): Promise<RecognitionResult> {
      if (!(await recognition.ownsTemplate(userId, templateId)))
        throw AppError.notFound(MESSAGES['template.not.found']);
      if (!looksLikePdf(file.content)) throw AppError.validation(MESSAGES['recognition.not.pdf'], 'file');
      const created = await recognition.createJob(userId, templateId, file.name, file.content);
      let read: JobResult<typeof RECOGNITION_JOBS.recognizePdf>;
      try {
        const job = await addJob(
          queue,
          RECOGNITION_JOBS.recognizePdf,
          { recognitionJobId: created.id, userId },
          { jobId: created.id, priority: await priorityOf(userId, created.id) },
        );
        read = parseJobResult(RECOGNITION_JOBS.recognizePdf, await job.waitUntilFinished(events, waitMs));
      } catch (error) {
        log.warn({ err: error, recognitionJobId: created.id }, 'a statement could not be read');
        // A job that never ran (or ran past the wait) is failed here; one that failed says so itself.
        await recognition.failJobIfPending(
          created.id,
          error instanceof Error ? error.message : String(error),
        );
        // Redis away is the product's 503 (the error handler's), not a file that could not be read.
        if (isRedisUnavailable(error)) throw error;
        // A PDF refused before it was read (a page too large, too many pages) is told why.
        const reason = error instanceof Error ? error.message : '';
        throw new AppError(
          'UNPROCESSABLE',
          isPdfRefusal(reason) ? reason : MESSAGES['recognition.error'],
          'file',
        );
      }
      return {
        file: file.name,
        fileName: file.name,
        text: read.text,
        token: created.token,
        pageCount: read.pageCount,
        matchesTemplate: read.mismatches.length === 0,
        mismatches: read.mismatches.map(templateMismatchText),
        failedBoxes: read.failedBoxes,
      };
    },

    textToCsv: async (userId: string, token: string) => toRecognitionCsv(await valuesOf(userId, [token])),
    consolidatedCsv: async (userId: string, tokens: readonly string[]) =>
      toRecognitionCsv(await valuesOf(userId, tokens)),
    find: (userId: string, tokens: readonly string[]) => valuesOf(userId, tokens),
  };
}
export type RecognitionService = ReturnType<typeof createRecognitionService>;
