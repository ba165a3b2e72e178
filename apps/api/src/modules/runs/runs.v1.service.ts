import { setTimeout as sleep } from 'node:timers/promises';
import { MESSAGES, stepValueSchema, type V1Run, type V1RunResult } from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import type { RunRepository } from './runs.repository.js';
import type { RunV1Repository } from './runs.v1.repository.js';

/**
 * How often `?wait=` looks at the run's status (one indexed read by primary key) besides the run's
 * end event, which wakes it at once: the read catches an end no event told of (a run the API's
 * sweep ended, an event published before the wait began).
 */
const WAIT_POLL_MS = 1_000;

type OwnedRun = NonNullable<Awaited<ReturnType<RunRepository['findOwnedRun']>>>;

const fileUrl = (runId: string, sequence: number, cell?: { row: number; column: number }) =>
  `/api/v1/runs/${runId}/steps/${sequence}/file${cell ? `?row=${cell.row}&column=${cell.column}` : ''}`;

/** What each step gave, as a program reads it: a table's rows, a value, or a file's link. */
function resultsOf(run: OwnedRun): V1RunResult[] {
  return run.steps.flatMap((step): V1RunResult[] => {
    const parsed = stepValueSchema.safeParse(step.value);
    if (!parsed.success) return [];
    const value = parsed.data;
    const { sequence, label } = step;
    switch (value.kind) {
      case 'text':
      case 'number':
      case 'datetime':
        return [{ sequence, label, kind: 'value', value: value.value }];
      case 'table': {
        const columns = value.columns.map((column) => column.label);
        return [
          {
            sequence,
            label,
            kind: 'table',
            columns,
            rows: value.rows.map((cells) =>
              Object.fromEntries(columns.map((column, index) => [column, cells[index] ?? null])),
            ),
            files: step.tableFiles.map((cell) => ({
              row: cell.rowIndex,
              column: cell.columnIndex,
              name: cell.file.name,
              url: fileUrl(run.id, sequence, { row: cell.rowIndex, column: cell.columnIndex }),
            })),
          },
        ];
      }
      case 'file':
      case 'image':
        return step.file
          ? [
              {
                sequence,
                label,
                kind: 'file',
                file: { name: step.file.name, url: fileUrl(run.id, sequence) },
              },
            ]
          : [];
      case 'none':
        return [];
    }
  });
}

function v1RunOf(run: OwnedRun): V1Run {
  return {
    id: run.id,
    extractorId: run.extractorId,
    status: run.status,
    trigger: run.trigger,
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
    error:
      run.errorMessage !== null || run.errorCode !== null
        ? { code: run.errorCode, message: run.errorMessage ?? '', sequence: run.errorSequence }
        : null,
    steps: run.steps.map((step) => {
      const value = stepValueSchema.safeParse(step.value);
      return {
        sequence: step.sequence,
        type: step.actionType,
        label: step.label,
        status: step.errorMessage === null ? 'SUCCESS' : 'ERROR',
        value: value.success ? value.data : null,
        errorMessage: step.errorMessage,
      };
    }),
    results: resultsOf(run),
  };
}

/**
 * GET /api/v1/runs/:id (issue 26): a run of the key's owner with its steps and results. With a
 * wait, the answer comes when the run is no longer EXECUTING or the wait ends, whichever is first;
 * waits are capped per process and per user (past either, 503 'Too many calls are waiting…').
 */
export function createRunV1Service(deps: {
  runs: RunRepository;
  statuses: RunV1Repository;
  waits: { maxRunning: number; maxPerUser: number };
  /** Tells of a run's end as a worker publishes it (the live events hub); answers how to stop. */
  onRunEnded: (runId: string, listener: () => void) => () => void;
}) {
  const { runs, statuses, waits, onRunEnded } = deps;
  let waiting = 0;
  const waitingByUser = new Map<string, number>();

  /** Until the run ends, the time is up or the caller goes away. */
  async function waitForEnd(userId: string, runId: string, waitMs: number, signal: AbortSignal) {
    const mine = waitingByUser.get(userId) ?? 0;
    if (waiting >= waits.maxRunning || mine >= waits.maxPerUser)
      throw new AppError('SERVICE_UNAVAILABLE', MESSAGES['publicapi.waits.busy']);
    waiting += 1;
    waitingByUser.set(userId, mine + 1);
    // Listening before the first read: an end between the two is still heard.
    let wake: (() => void) | undefined;
    let hasEnded = false;
    const stopListening = onRunEnded(runId, () => {
      hasEnded = true;
      wake?.();
    });
    try {
      const deadline = Date.now() + waitMs;
      while (!signal.aborted && Date.now() < deadline) {
        const status = await statuses.ownedRunStatus(userId, runId);
        if (status !== 'EXECUTING') return;
        if (hasEnded) {
          // Heard during the read: read once more before pausing.
          hasEnded = false;
          continue;
        }
        const pause = new AbortController();
        wake = () => pause.abort();
        const stopPause = () => pause.abort();
        signal.addEventListener('abort', stopPause, { once: true });
        await sleep(Math.min(WAIT_POLL_MS, Math.max(0, deadline - Date.now())), undefined, {
          signal: pause.signal,
        }).catch(() => undefined);
        signal.removeEventListener('abort', stopPause);
        wake = undefined;
      }
    } finally {
      stopListening();
      waiting -= 1;
      const left = (waitingByUser.get(userId) ?? 1) - 1;
      if (left > 0) waitingByUser.set(userId, left);
      else waitingByUser.delete(userId);
    }
  }

  return {
    async get(userId: string, runId: string, waitSeconds: number, signal: AbortSignal): Promise<V1Run> {
      const status = await statuses.ownedRunStatus(userId, runId);
      if (status === null) throw AppError.notFound();
      if (status === 'EXECUTING' && waitSeconds > 0)
        await waitForEnd(userId, runId, waitSeconds * 1000, signal);
      const run = await runs.findOwnedRun(userId, runId);
      if (!run) throw AppError.notFound();
      return v1RunOf(run);
    },
  };
}
export type RunV1Service = ReturnType<typeof createRunV1Service>;
