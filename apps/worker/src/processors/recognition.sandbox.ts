import { UnrecoverableError, type SandboxedJob } from 'bullmq';
import { Redis } from 'ioredis';
import { createDatabase, createFileStorage, pgSql, type SqlRunner } from '@pagewright/db';
import {
  RECOGNITION_JOBS,
  publishLiveEvent,
  userShareOf,
  recognizePdfPayloadSchema,
  renderTemplatePayloadSchema,
} from '@pagewright/shared';
import { loadConfig } from '../config.js';
import { fairly, slotOwnerOf } from '../fair-share.js';
import { dispatchJobs } from '../job-dispatch.js';
import { recognizePdf } from '../recognition/recognize-pdf.js';
import { renderTemplate, type RecognitionDeps } from '../recognition/render-template.js';

/**
 * The recognition queue's processor, run by BullMQ in a pool of child processes of the worker: PDF
 * parsing, rendering and OCR are CPU work, so they run beside the worker's own event loop (which
 * keeps its locks and heartbeats), one job per core at a time.
 *
 * A PDF is hostile input: a job that runs past RECOGNITION_JOB_TIMEOUT_SECONDS ends its process
 * (BullMQ starts another; the job fails), so no document can hold a core for ever.
 */
const config = loadConfig();
let deps: (RecognitionDeps & { sql: SqlRunner }) | null = null;

function dependencies(): RecognitionDeps & { sql: SqlRunner } {
  if (deps) return deps;
  // One job at a time in this process: two connections are plenty.
  const { prisma: db, pool } = createDatabase(config.DATABASE_URL, { poolSize: 2 });
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 3 });
  deps = {
    db,
    sql: pgSql(pool),
    files: createFileStorage(db),
    publish: async (userId, event) => publishLiveEvent(redis, config.REDIS_KEY_PREFIX, userId, event),
    pdfPagesMax: config.RECOGNITION_PDF_PAGES_MAX,
  };
  return deps;
}

/** The two kinds of recognition job; a job of another name fails (without a retry, as any here). */
const readDocument = dispatchJobs<typeof RECOGNITION_JOBS, SandboxedJob>(RECOGNITION_JOBS, {
  renderTemplate: async (job) => ({
    pageCount: await renderTemplate(renderTemplatePayloadSchema.parse(job.data), dependencies()),
  }),
  recognizePdf: (job) => recognizePdf(recognizePdfPayloadSchema.parse(job.data), dependencies()),
});

/**
 * A job has more than one attempt (RECOGNITION_JOBS' options) for one case only: BullMQ handed it
 * to a child that had just died (killed while idle), which fails it before any child began it
 * (issue 24). A child marks the job begun (its progress) before it reads anything, and a job begun
 * before is never read again: the PDF may be what ended the child. Errors of the reading itself do
 * not retry.
 */
async function processRecognitionJob(job: SandboxedJob): Promise<unknown> {
  if (job.attemptsMade > 0 && job.progress !== 0)
    throw new UnrecoverableError('the process reading this PDF ended before it was read');
  await job.updateProgress(1);
  const timer = setTimeout(() => {
    process.stderr.write(`recognition job ${job.id ?? ''} ran past its time; ending this process\n`);
    process.exit(1);
  }, config.RECOGNITION_JOB_TIMEOUT_SECONDS * 1000);
  try {
    return await readDocument(job);
  } catch (error) {
    throw new UnrecoverableError(error instanceof Error ? error.message : String(error));
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Fair shares (issue 24): a job starts in its user's share of the worker's slots (this child's
 * slot belongs to its worker process); a job's lease outlasts its time limit, so the slot of a
 * child that ended itself frees by itself.
 */
let fairRedis: Redis | null = null;
const fairRedisOf = () => (fairRedis ??= new Redis(config.REDIS_URL, { maxRetriesPerRequest: 3 }));
export default fairly<SandboxedJob, unknown>(
  {
    redis: { eval: (script, numkeys, ...args) => fairRedisOf().eval(script, numkeys, ...args) },
    keyPrefix: config.REDIS_KEY_PREFIX,
    queue: 'recognition',
    slotOwner: slotOwnerOf(process.ppid),
    share: userShareOf(config.RECOGNITION_CONCURRENCY),
    leaseMs: (config.RECOGNITION_JOB_TIMEOUT_SECONDS + 30) * 1000,
    onError: (error) => process.stderr.write(`fair share unavailable: ${String(error)}\n`),
  },
  processRecognitionJob,
);
