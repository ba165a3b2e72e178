import request from 'supertest';
import type { RunDetail } from '@pagewright/shared';
import { waitUntil } from './wait.js';

/** GET /api/extractor/run/:runId as the run's owner. */
export async function readRun(apiUrl: string, token: string, runId: string): Promise<RunDetail> {
  return (
    await request(apiUrl)
      .get(`/api/extractor/run/${runId}`)
      .set({ Authorization: `Bearer ${token}` })
      .expect(200)
  ).body as RunDetail;
}

/** Polls a run (every 250 ms) until `until` holds, by default until it has ended. */
export async function waitForRun(
  apiUrl: string,
  token: string,
  runId: string,
  until: (run: RunDetail) => boolean = (run) => run.status !== 'EXECUTING',
  timeoutMs = 60_000,
): Promise<RunDetail> {
  let last: RunDetail | undefined;
  const outcome = await waitUntil(
    async () => {
      try {
        last = await readRun(apiUrl, token, runId);
      } catch (error) {
        // The API refuses to show the run: that ends the wait now, not at its timeout.
        return { error };
      }
      return until(last) && { run: last };
    },
    { timeoutMs, intervalMs: 250, message: `run ${runId}` },
  ).catch(() => {
    throw new Error(`run ${runId} still ${last?.status}: ${JSON.stringify(last)}`);
  });
  if ('error' in outcome) throw outcome.error;
  return outcome.run;
}
