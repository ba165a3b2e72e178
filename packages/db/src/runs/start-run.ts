import { randomUUID } from 'node:crypto';
import type { PrismaClient, RunStatus } from '../generated/client.js';
import { sql, type SqlFragment } from '../datasets/sql.js';
import type { SqlRunner } from '../datasets/sql-runner.js';

/** Why a run was not started. */
export type RunRefusal =
  /** Not the caller's extractor (or gone). */
  | 'NOT_FOUND'
  /** A navigator fired by a scheduler: it has no Execute. */
  | 'NOT_EXECUTABLE'
  /** Nothing saved to run: the run would "succeed" doing nothing. */
  | 'NO_ACTIONS'
  /** An ask of an earlier run is still waiting for its answer. */
  | 'PENDING_ASK'
  /** A run of the extractor is executing. */
  | 'EXECUTING'
  /** The job could not be queued (Redis away): the run was taken back. */
  | 'QUEUE_UNAVAILABLE'
  /** A scheduled firing some other worker has already handled (started or skipped). */
  | 'ALREADY_FIRED';

export type StartRunResult =
  | { started: true; runId: string }
  /** `cause`: what queueing threw (QUEUE_UNAVAILABLE). */
  | { started: false; refusal: RunRefusal; cause?: unknown };

/** A scheduler's firing a run belongs to. */
export interface RunFiring {
  schedulerId: string;
  scheduledFor: Date;
}

export interface StartRunRequest {
  userId: string;
  extractorId: string;
  /** Set for a scheduled run: the run and its firing record are written together, once. */
  firing?: RunFiring;
  /**
   * Values of the extractor's inputs, already checked against their types by the caller; the run
   * keeps them with the defaults of the inputs left out (a scheduled run: all defaults).
   */
  inputs?: Record<string, string>;
  /**
   * Set for an item of a bulk run (issue 26): the item claimed (STARTING) gets the run, in the same
   * statement. Runs of one bulk run go side by side, so the start does not wait for the
   * extractor's other runs; an item no longer STARTING (cancelled meanwhile) starts nothing.
   */
  bulkItemId?: string;
}

/** A unique key refused the statement (here: the firing's, already recorded). */
const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';

/** The extractor as the start found it, and whether the run started. */
interface StartRow {
  status: RunStatus | null;
  extractorType: string;
  hasActions: boolean;
  hasPendingAsk: boolean;
  started: number;
}

/**
 * The whole start as one statement, all or nothing: read the extractor (saved actions? an ask of
 * an earlier run waiting?), claim it (EXECUTING, unless a run of it executes), create its run and,
 * for a scheduled start, the firing record. Two starts at once meet on the extractor's row lock;
 * the second then finds it EXECUTING and claims nothing. A firing already recorded fails the
 * statement on its unique key (23505), leaving nothing behind. No row: not the caller's
 * extractor. Timestamps are UTC, as Prisma keeps them.
 */
function startStatement(request: StartRunRequest, runId: string): SqlFragment {
  const extractorId = sql`${request.extractorId}::uuid`;
  const userId = sql`${request.userId}::uuid`;
  const runUuid = sql`${runId}::uuid`;
  const runText = sql`${runId}::text`;
  const trigger = sql`${request.firing ? 'SCHEDULED' : 'MANUAL'}::"RunTrigger"`;
  const schedulerId = sql`${request.firing?.schedulerId ?? null}::uuid`;
  const scheduledFor = sql`${request.firing?.scheduledFor.toISOString() ?? null}::timestamp`;
  const inputs = sql`${JSON.stringify(request.inputs ?? {})}::jsonb`;
  const bulkItemId = sql`${request.bulkItemId ?? null}::uuid`;
  return sql`
  WITH extractor AS (
    SELECT e.id, e.status, e."extractorType",
      COALESCE(
        (SELECT jsonb_object_agg(i->>'name', i->>'defaultValue') FROM jsonb_array_elements(e.inputs) i),
        '{}'::jsonb
      ) AS defaults,
      EXISTS (SELECT 1 FROM "ExtractorAction" a WHERE a."extractorId" = e.id) AS "hasActions",
      EXISTS (
        SELECT 1 FROM "PendingAsk" p JOIN "Run" r ON r.id = p."runId"
        WHERE p."userId" = ${userId} AND p.status = 'PENDING' AND r."extractorId" = e.id
      ) AS "hasPendingAsk"
    FROM "Extractor" e WHERE e.id = ${extractorId} AND e."userId" = ${userId}
  ), claimed AS (
    UPDATE "Extractor" x SET status = 'EXECUTING', "updatedAt" = now() AT TIME ZONE 'UTC'
    FROM extractor
    WHERE x.id = extractor.id AND extractor."hasActions" AND NOT extractor."hasPendingAsk"
      AND (${schedulerId} IS NULL OR extractor."extractorType" <> 'NAVIGATOR')
      AND (${bulkItemId} IS NOT NULL OR (
        (x.status IS NULL OR x.status <> 'EXECUTING')
        AND NOT EXISTS (SELECT 1 FROM "Run" WHERE "extractorId" = ${extractorId} AND status = 'EXECUTING')
      ))
      AND (${bulkItemId} IS NULL OR EXISTS (
        SELECT 1 FROM "BulkRunItem" b WHERE b.id = ${bulkItemId} AND b."userId" = ${userId} AND b.status = 'STARTING'
      ))
    RETURNING x.id
  ), started AS (
    INSERT INTO "Run" (id, "jobId", "extractorId", "userId", status, trigger, "schedulerId", inputs, "startedAt", "createdAt", "updatedAt")
    SELECT ${runUuid}, ${runText}, ${extractorId}, ${userId}, 'EXECUTING', ${trigger}, ${schedulerId},
      extractor.defaults || ${inputs},
      now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC'
    FROM claimed, extractor
    RETURNING id
  ), fired AS (
    INSERT INTO "SchedulerFiring" (id, "schedulerId", "extractorId", "userId", "scheduledFor", outcome, "runId", "createdAt")
    SELECT gen_random_uuid(), ${schedulerId}, ${extractorId}, ${userId}, ${scheduledFor}, 'STARTED', started.id,
      now() AT TIME ZONE 'UTC'
    FROM started WHERE ${schedulerId} IS NOT NULL
    RETURNING id
  ), bulk_item AS (
    UPDATE "BulkRunItem" b SET "runId" = started.id, status = 'RUNNING', attempts = b.attempts + 1,
      "errorMessage" = NULL
    FROM started WHERE b.id = ${bulkItemId}
    RETURNING b.id
  )
  SELECT extractor.status::text AS status, extractor."extractorType"::text AS "extractorType",
    extractor."hasActions", extractor."hasPendingAsk",
    (SELECT count(*) FROM started)::int AS started
  FROM extractor`;
}
// (A data-modifying WITH runs whether or not the final SELECT reads it: `fired` and `bulk_item`
// always happen.)

/**
 * Starting a run of a saved extractor, the one way: Execute (the API) and a scheduler's firing
 * (the worker) both come here. One statement on node-postgres (startStatement), since a thousand
 * firings due together make this path hot; then `enqueue` queues the job, and if it cannot, the run is taken back and the extractor
 * gets the status it had.
 */
export function createRunStarter(deps: {
  db: PrismaClient;
  /** node-postgres (a pool): the hot path's SQL, with PostgreSQL's error codes. */
  sql: SqlRunner;
  /** Queues the run's job (`userId`: whose fair share of the workers it takes). */
  enqueue: (runId: string, userId: string) => Promise<void>;
}) {
  const { db, sql: runner, enqueue } = deps;

  /** Takes back a run that could not be queued (its firing record goes with it). */
  function withdrawRun(runId: string, extractorId: string, previousStatus: RunStatus | null) {
    return db.$transaction([
      db.schedulerFiring.deleteMany({ where: { runId } }),
      // A bulk item waits for the driver's next pass.
      db.bulkRunItem.updateMany({ where: { runId }, data: { status: 'PENDING', runId: null } }),
      db.run.delete({ where: { id: runId } }),
      db.extractor.updateMany({
        // Other runs of a bulk run may still be executing: the extractor stays EXECUTING then.
        where: { id: extractorId, status: 'EXECUTING', runs: { none: { status: 'EXECUTING' } } },
        data: { status: previousStatus },
      }),
    ]);
  }

  return {
    async start(request: StartRunRequest): Promise<StartRunResult> {
      const { userId, extractorId, firing } = request;
      // The run id is also its job id, known before the job exists: a run row always names its
      // job, so the API's stopped-run sweep can tell a lost job from one not yet queued.
      const runId = randomUUID();
      let extractor: StartRow | undefined;
      try {
        [extractor] = await runner.query<StartRow>(startStatement(request, runId));
      } catch (error) {
        if (firing && isUniqueViolation(error)) return { started: false, refusal: 'ALREADY_FIRED' };
        throw error;
      }
      if (!extractor) return { started: false, refusal: 'NOT_FOUND' };
      if (firing && extractor.extractorType === 'NAVIGATOR')
        return { started: false, refusal: 'NOT_EXECUTABLE' };
      if (!extractor.hasActions) return { started: false, refusal: 'NO_ACTIONS' };
      if (extractor.hasPendingAsk) return { started: false, refusal: 'PENDING_ASK' };
      const started = extractor.started;
      if (started === 0) return { started: false, refusal: 'EXECUTING' };
      try {
        await enqueue(runId, userId);
      } catch (cause) {
        await withdrawRun(runId, extractorId, extractor.status);
        return { started: false, refusal: 'QUEUE_UNAVAILABLE', cause };
      }
      return { started: true, runId };
    },
  };
}
export type RunStarter = ReturnType<typeof createRunStarter>;
