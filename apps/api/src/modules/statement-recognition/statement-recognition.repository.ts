import { newOpaqueToken, type FileStorage, type PrismaClient } from '@pagewright/db';
import {
  BOX_PROBLEMS,
  MESSAGES,
  boxProblemText,
  formatMessage,
  templateMismatchSchema,
  templateMismatchSummary,
  type BoxProblem,
  type RecognizedValue,
} from '@pagewright/shared';

const parseBoxProblem = (problem: string | null): BoxProblem | null =>
  BOX_PROBLEMS.find((known) => known === problem) ?? null;

/**
 * The record that heads a file which does not match its template (page 0, label "Template"): the
 * reasons and the boxes that failed, so a CSV read on its own still says it.
 */
function mismatchRecord(
  filename: string,
  stored: unknown,
  values: readonly RecognizedValue[],
): RecognizedValue | null {
  const parsed = templateMismatchSchema.array().safeParse(stored);
  const summary = parsed.success ? templateMismatchSummary(parsed.data) : null;
  if (!summary) return null;
  const failed = values.flatMap(({ page, label, problem }) =>
    problem ? [`${label} (page ${page}: ${boxProblemText(problem)})`] : [],
  );
  const value =
    failed.length > 0
      ? `${summary}; ${formatMessage('recognition.failed.boxes', { boxes: failed.join(', ') })}`
      : summary;
  return { filename, page: 0, label: MESSAGES['recognition.mismatch.label'], value, problem: null };
}

/** Recognition jobs and the values they read; every query scoped to the owner. */
export function createRecognitionRepository(db: PrismaClient, files: FileStorage) {
  return {
    ownsTemplate: async (userId: string, templateId: string) =>
      (await db.recognitionTemplate.count({ where: { id: templateId, userId } })) > 0,

    /** Stores the uploaded PDF and its job; the token is what the CSV calls take. */
    async createJob(userId: string, templateId: string, fileName: string, content: Buffer) {
      return db.$transaction(async (tx) => {
        const sourceFileId = await files.put(
          content,
          { userId, name: fileName, mimeType: 'application/pdf' },
          tx,
        );
        return tx.recognitionJob.create({
          data: { userId, templateId, fileName, sourceFileId, token: newOpaqueToken() },
          select: { id: true, token: true },
        });
      });
    },

    /** A job still queued or running when its call gave up ends ERROR; its PDF is not kept. */
    async failJobIfPending(id: string, reason: string) {
      const { count } = await db.recognitionJob.updateMany({
        where: { id, status: { in: ['QUEUED', 'PROCESSING'] } },
        data: { status: 'ERROR', error: reason.slice(0, 1000), finishedAt: new Date() },
      });
      const job =
        count > 0
          ? await db.recognitionJob.findUnique({ where: { id }, select: { sourceFileId: true } })
          : null;
      if (job?.sourceFileId) await files.delete([job.sourceFileId]);
    },

    /** The values read from the caller's processed files, in the order of `tokens`, then page and box. */
    async values(userId: string, tokens: readonly string[]): Promise<RecognizedValue[] | null> {
      const jobs = await db.recognitionJob.findMany({
        where: { userId, token: { in: [...tokens] }, status: 'DONE' },
        select: {
          token: true,
          fileName: true,
          mismatch: true,
          results: {
            orderBy: [{ page: 'asc' }, { sequence: 'asc' }],
            select: { page: true, label: true, value: true, problem: true },
          },
        },
      });
      if (jobs.length !== new Set(tokens).size) return null;
      const byToken = new Map(jobs.map((job) => [job.token, job]));
      return [...new Set(tokens)].flatMap((token) => {
        const job = byToken.get(token);
        if (!job) return [];
        const values: RecognizedValue[] = job.results.map(({ problem, ...result }) => ({
          filename: job.fileName,
          ...result,
          problem: parseBoxProblem(problem),
        }));
        const marker = mismatchRecord(job.fileName, job.mismatch, values);
        return marker ? [marker, ...values] : values;
      });
    },
  };
}
export type RecognitionRepository = ReturnType<typeof createRecognitionRepository>;
