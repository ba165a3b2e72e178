import { describe, expect, it } from 'vitest';
import { jobOf, parseJobResult, type JobCatalogue } from './define-job.js';
import {
  BULK_RUN_JOBS,
  FENGINE_IMPORT_JOBS,
  MAIL_JOBS,
  MAINTENANCE_JOBS,
  QUEUES,
  RECOGNITION_JOBS,
  RUN_JOBS,
  SCHEDULE_JOBS,
  WEBHOOK_JOBS,
} from './jobs.js';
import { SESSION_COMMANDS, SESSION_QUEUES } from './session-commands.js';

const ID = '8f9c2f4e-4f7e-4c1e-9f55-1f0e6f1b7a11';
const QUEUE_CATALOGUES: Record<string, JobCatalogue> = {
  [QUEUES.maintenance]: MAINTENANCE_JOBS,
  [QUEUES.runs]: RUN_JOBS,
  [QUEUES.schedules]: SCHEDULE_JOBS,
  [QUEUES.mail]: MAIL_JOBS,
  [QUEUES.recognition]: RECOGNITION_JOBS,
  [QUEUES.fengineImport]: FENGINE_IMPORT_JOBS,
  [QUEUES.webhooks]: WEBHOOK_JOBS,
  [QUEUES.bulkRuns]: BULK_RUN_JOBS,
};

describe('the job catalogue', () => {
  it("declares each queue's jobs on that queue, each name once", () => {
    for (const [queue, catalogue] of Object.entries(QUEUE_CATALOGUES)) {
      const definitions = Object.values(catalogue);
      expect(definitions.map((definition) => definition.queue)).toEqual(definitions.map(() => queue));
      expect(new Set(definitions.map((definition) => definition.name)).size).toBe(definitions.length);
    }
  });

  // Deployed workers and the jobs already in Redis read these: they are pinned as they were
  // before the catalogue (names, ids and options of every kind).
  it('keeps the names, job ids and options on the wire', () => {
    const kept = { removeOnComplete: { count: 1000 }, removeOnFail: { count: 1000 } };
    const periodic = { removeOnComplete: { count: 10 }, removeOnFail: { count: 10 } };
    const mail = { attempts: 8, backoff: { type: 'exponential', delay: 15_000 }, ...kept };
    const recognition = {
      attempts: 3,
      backoff: { type: 'fixed', delay: 300 },
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: { age: 24 * 3600, count: 1000 },
    };
    expect(jobOf(MAINTENANCE_JOBS.purgeExpiredSessions, { retentionDays: 7 })).toEqual({
      name: 'purge-expired-sessions',
      data: { retentionDays: 7 },
      opts: {},
    });
    expect(jobOf(RUN_JOBS.runFlow, { runId: ID, userId: ID })).toEqual({
      name: 'run-flow',
      data: { runId: ID, userId: ID },
      opts: { jobId: ID, attempts: 1, ...kept },
    });
    expect(jobOf(SCHEDULE_JOBS.fire, { schedulerId: ID })).toEqual({
      name: 'fire-scheduler',
      data: { schedulerId: ID },
      opts: { attempts: 3, backoff: { type: 'fixed', delay: 5_000 }, ...kept },
    });
    expect(jobOf(MAIL_JOBS.send, { to: 'a@example.com', subject: 's', text: 't', html: 'h' })).toMatchObject({
      name: 'send-mail',
      opts: mail,
    });
    expect(jobOf(MAIL_JOBS.sendMessage, { recipientId: ID })).toEqual({
      name: 'send-message-mail',
      data: { recipientId: ID },
      opts: { ...mail, jobId: `message-mail-${ID}` },
    });
    expect(jobOf(MAIL_JOBS.requeuePendingMessageMails, {})).toEqual({
      name: 'requeue-pending-message-mails',
      data: {},
      opts: periodic,
    });
    expect(jobOf(FENGINE_IMPORT_JOBS.importDataset, { datasetId: ID })).toEqual({
      name: 'fengine-import-dataset',
      data: { datasetId: ID },
      opts: {
        jobId: `fengine-import-${ID}`,
        attempts: 8,
        backoff: { type: 'exponential', delay: 5_000 },
        removeOnComplete: true,
        removeOnFail: true,
      },
    });
    expect(jobOf(FENGINE_IMPORT_JOBS.sweep, {})).toMatchObject({
      name: 'fengine-import-sweep',
      opts: periodic,
    });
    expect(jobOf(WEBHOOK_JOBS.deliver, { deliveryId: ID })).toEqual({
      name: 'deliver-webhook',
      data: { deliveryId: ID },
      opts: { jobId: `webhook-${ID}`, attempts: 50, backoff: { type: 'webhook' }, ...kept },
    });
    expect(jobOf(BULK_RUN_JOBS.advance, { userId: ID })).toEqual({
      name: 'advance-bulk-runs',
      data: { userId: ID },
      opts: {
        attempts: 3,
        backoff: { type: 'fixed', delay: 2_000 },
        removeOnComplete: true,
        removeOnFail: { count: 100 },
      },
    });
    expect(jobOf(BULK_RUN_JOBS.sweep, {})).toMatchObject({ name: 'sweep-bulk-runs', opts: periodic });
    expect(jobOf(RECOGNITION_JOBS.renderTemplate, { userId: ID, templateId: ID, fileId: ID })).toMatchObject({
      name: 'render-template',
      opts: recognition,
    });
    expect(jobOf(RECOGNITION_JOBS.recognizePdf, { recognitionJobId: ID })).toMatchObject({
      name: 'recognize-pdf',
      opts: recognition,
    });
  });
});

describe('the live session commands', () => {
  it('name each job after its command, on the open queue or the queue of the worker holding the page', () => {
    for (const [key, definition] of Object.entries(SESSION_COMMANDS)) {
      expect(definition.name).toBe(key);
      expect(definition.payload.shape.command.value).toBe(key);
      expect(definition.queue).toBe(key === 'open' ? SESSION_QUEUES.open : SESSION_QUEUES.ofWorker);
    }
    expect(SESSION_QUEUES.ofWorker('w1')).toBe('pagewright-session-w1');
  });

  it('read an answer or a failure, and refuse anything else', () => {
    expect(parseJobResult(SESSION_COMMANDS.open, { ok: true, workerId: 'w1', sessionId: 's1' })).toEqual({
      ok: true,
      workerId: 'w1',
      sessionId: 's1',
    });
    const lost = { ok: false, reason: 'SESSION_LOST', message: 'gone', code: null, name: null };
    expect(parseJobResult(SESSION_COMMANDS.image, lost)).toEqual(lost);
    expect(() => parseJobResult(SESSION_COMMANDS.image, { ok: true, image: 'AAAA', pageUrl: 'x' })).toThrow(
      /image.*width/,
    );
    expect(() => parseJobResult(SESSION_COMMANDS.stop, { stopped: true })).toThrow(/stop/);
  });
});
