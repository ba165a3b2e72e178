import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAIL_JOBS, defineJob } from '@pagewright/shared';
import { dispatchJobs } from './job-dispatch.js';

/** What the dispatch reads of a job: its name (and a handler here, its data). */
interface TestJob {
  name: string;
  data: unknown;
}

const EXPORT_JOBS = {
  write: defineJob({
    queue: 'test-exports',
    name: 'write-export',
    payload: z.object({ rows: z.number() }),
    result: z.object({ written: z.number() }),
    options: {},
  }),
  sweep: defineJob({
    queue: 'test-exports',
    name: 'sweep-exports',
    payload: z.object({}),
    result: z.void(),
    options: {},
  }),
} as const;

describe('dispatchJobs', () => {
  it('hands each job to the handler of its kind, by its name', async () => {
    const swept: string[] = [];
    const process = dispatchJobs<typeof EXPORT_JOBS, TestJob>(EXPORT_JOBS, {
      write: async (job) => ({ written: z.object({ rows: z.number() }).parse(job.data).rows }),
      sweep: async (job) => {
        swept.push(job.name);
      },
    });
    expect(await process({ name: 'write-export', data: { rows: 3 } })).toEqual({ written: 3 });
    expect(await process({ name: 'sweep-exports', data: {} })).toBeUndefined();
    expect(swept).toEqual(['sweep-exports']);
  });

  it('fails a job of a name its queue does not know, naming it and the queue', async () => {
    const process = dispatchJobs<typeof EXPORT_JOBS, TestJob>(EXPORT_JOBS, {
      write: async () => ({ written: 0 }),
      sweep: async () => undefined,
    });
    await expect(process({ name: 'write', data: { rows: 3 } })).rejects.toThrow(
      'Unknown job write on the queue test-exports',
    );
  });

  it('refuses at start a catalogue that mixes queues, names two kinds alike or lacks a handler', () => {
    const handlers = { write: async () => ({ written: 0 }), sweep: async () => undefined };
    expect(() =>
      dispatchJobs({ ...EXPORT_JOBS, sweep: { ...EXPORT_JOBS.sweep, queue: 'test-other' } }, handlers),
    ).toThrow('The job sweep-exports is not of the queue test-exports');
    expect(() =>
      dispatchJobs({ ...EXPORT_JOBS, sweep: { ...EXPORT_JOBS.sweep, name: 'write-export' } }, handlers),
    ).toThrow('Two kinds of job are named write-export');
    const onlySend = { send: async () => undefined };
    // @ts-expect-error: tsc refuses a catalogue kind without a handler; a worker would not start
    expect(() => dispatchJobs(MAIL_JOBS, onlySend)).toThrow('No handler for the job send-message-mail');
  });

  it("types each handler's answer by its kind's result schema", () => {
    dispatchJobs<typeof EXPORT_JOBS, TestJob>(EXPORT_JOBS, {
      // @ts-expect-error: write-export answers { written: number }
      write: async () => ({ written: 'all' }),
      sweep: async () => undefined,
    });
  });
});
