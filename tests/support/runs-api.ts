import request from 'supertest';
import type { RunDetail } from '@pagewright/shared';

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
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await readRun(apiUrl, token, runId);
    if (until(run)) return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${run.status}: ${JSON.stringify(run)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
