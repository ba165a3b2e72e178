import type { SandboxedJob } from 'bullmq';
import { Redis } from 'ioredis';
import { createDatabase, createFileStorage, pgSql, type SqlRunner } from '@pagewright/db';
import {
  RECOGNITION_JOBS,
  publishLiveEvent,
  recognizePdfPayloadSchema,
  renderTemplatePayloadSchema,
} from '@pagewright/shared';
import { loadConfig } from '../config.js';
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
  };
  return deps;
}

export default async function processRecognitionJob(job: SandboxedJob): Promise<unknown> {
  const timer = setTimeout(() => {
    process.stderr.write(`recognition job ${job.id ?? ''} ran past its time; ending this process\n`);
    process.exit(1);
  }, config.RECOGNITION_JOB_TIMEOUT_SECONDS * 1000);
  try {
    if (job.name === RECOGNITION_JOBS.renderTemplate) {
      return { pageCount: await renderTemplate(renderTemplatePayloadSchema.parse(job.data), dependencies()) };
    }
    if (job.name === RECOGNITION_JOBS.recognizePdf) {
      return await recognizePdf(recognizePdfPayloadSchema.parse(job.data), dependencies());
    }
    throw new Error(`unknown recognition job ${job.name}`);
  } finally {
    clearTimeout(timer);
  }
}
