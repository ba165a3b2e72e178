import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JobResultError, addJob, defineJob, jobOf, parseJobResult } from './define-job.js';

const exportRows = defineJob({
  queue: 'test-exports',
  name: 'export-rows',
  payload: z.object({ exportId: z.string(), rows: z.number().int().default(100) }),
  result: z.object({ written: z.number().int(), warnings: z.array(z.string()).default([]) }),
  options: { attempts: 2, removeOnComplete: true },
  jobId: ({ exportId }) => `export-${exportId}`,
});

describe('jobOf', () => {
  it("gives a job the kind's name and options, its id from the payload, then the call's options", () => {
    expect(jobOf(exportRows, { exportId: 'a1' }, { priority: 3 })).toEqual({
      name: 'export-rows',
      data: { exportId: 'a1' },
      opts: { attempts: 2, removeOnComplete: true, jobId: 'export-a1', priority: 3 },
    });
  });

  it('lets a call change an option of its kind, and a kind without ids names no job', () => {
    const ping = defineJob({
      queue: 'test-exports',
      name: 'ping',
      payload: z.object({}),
      result: z.void(),
      options: { backoff: { type: 'fixed', delay: 1_000 } },
    });
    expect(jobOf(ping, {}, { backoff: { type: 'fixed', delay: 5 } }).opts).toEqual({
      backoff: { type: 'fixed', delay: 5 },
    });
  });
});

describe('addJob', () => {
  it('adds the job under its name with its payload and options', async () => {
    const added: unknown[] = [];
    const queue = {
      add: async (name: string, data: unknown, options: unknown) => {
        added.push({ name, data, options });
        return { id: 'job-1' };
      },
    };
    expect(await addJob(queue, exportRows, { exportId: 'b2', rows: 5 })).toEqual({ id: 'job-1' });
    expect(added).toEqual([
      {
        name: 'export-rows',
        data: { exportId: 'b2', rows: 5 },
        options: { attempts: 2, removeOnComplete: true, jobId: 'export-b2' },
      },
    ]);
  });
});

describe('parseJobResult', () => {
  it('reads an answer through the result schema (its defaults filled in)', () => {
    expect(parseJobResult(exportRows, { written: 7 })).toEqual({ written: 7, warnings: [] });
  });

  it('refuses an answer that is not what the kind says, naming the job and the field', () => {
    const read = () => parseJobResult(exportRows, { written: 'seven' });
    expect(read).toThrow(JobResultError);
    expect(read).toThrow(/export-rows.*written/);
    expect(() => parseJobResult(exportRows, undefined)).toThrow(/export-rows.*\(root\)/);
  });
});
