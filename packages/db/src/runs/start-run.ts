import { randomUUID } from 'node:crypto';
import { Prisma, type PrismaClient, type RunStatus } from '../generated/client.js';

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
}

const isUniqueViolation = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';

/**
 * Starting a run of a saved extractor, the one way: Execute (the API) and a scheduler's firing
 * (the worker) both come here. The extractor is marked EXECUTING and its run created in one
 * transaction whose conditional update holds the row lock, so two starts at once cannot both run;
 * a scheduled start also writes its firing record (unique per scheduler, extractor and time) in
 * that transaction, so a firing handled twice starts one run. Then `enqueue` queues the job; if it
 * cannot, the run is taken back and the extractor gets the status it had.
 */
export function createRunStarter(deps: { db: PrismaClient; enqueue: (runId: string) => Promise<void> }) {
  const { db, enqueue } = deps;

  /** The run and, when scheduled, its firing; undefined when a run is executing. */
  function createRun(request: StartRunRequest) {
    const { userId, extractorId, firing } = request;
    return db.$transaction(async (tx) => {
      const executing = await tx.run.count({ where: { extractorId, status: 'EXECUTING' } });
      if (executing > 0) return undefined;
      const claimed = await tx.extractor.updateMany({
        where: { id: extractorId, userId, OR: [{ status: null }, { status: { not: 'EXECUTING' } }] },
        data: { status: 'EXECUTING' },
      });
      if (claimed.count === 0) return undefined;
      // The run id is also its job id, known before the job exists: a run row always names its
      // job, so the API's stopped-run sweep can tell a lost job from one not yet queued.
      const id = randomUUID();
      const run = await tx.run.create({
        data: {
          id,
          jobId: id,
          extractorId,
          userId,
          status: 'EXECUTING',
          trigger: firing ? 'SCHEDULED' : 'MANUAL',
          schedulerId: firing?.schedulerId ?? null,
        },
      });
      if (firing)
        await tx.schedulerFiring.create({
          data: {
            schedulerId: firing.schedulerId,
            extractorId,
            userId,
            scheduledFor: firing.scheduledFor,
            outcome: 'STARTED',
            runId: id,
          },
        });
      return run;
    });
  }

  /** Takes back a run that could not be queued (its firing record goes with it). */
  function withdrawRun(runId: string, extractorId: string, previousStatus: RunStatus | null) {
    return db.$transaction([
      db.schedulerFiring.deleteMany({ where: { runId } }),
      db.run.delete({ where: { id: runId } }),
      db.extractor.updateMany({
        where: { id: extractorId, status: 'EXECUTING' },
        data: { status: previousStatus },
      }),
    ]);
  }

  return {
    async start(request: StartRunRequest): Promise<StartRunResult> {
      const { userId, extractorId } = request;
      const extractor = await db.extractor.findFirst({
        where: { id: extractorId, userId },
        select: { status: true, extractorType: true, _count: { select: { actions: true } } },
      });
      if (!extractor) return { started: false, refusal: 'NOT_FOUND' };
      if (request.firing && extractor.extractorType === 'NAVIGATOR')
        return { started: false, refusal: 'NOT_EXECUTABLE' };
      if (extractor._count.actions === 0) return { started: false, refusal: 'NO_ACTIONS' };
      const pendingAsks = await db.pendingAsk.count({
        where: { userId, status: 'PENDING', run: { extractorId } },
      });
      if (pendingAsks > 0) return { started: false, refusal: 'PENDING_ASK' };
      let run;
      try {
        run = await createRun(request);
      } catch (error) {
        if (request.firing && isUniqueViolation(error)) return { started: false, refusal: 'ALREADY_FIRED' };
        throw error;
      }
      if (!run) return { started: false, refusal: 'EXECUTING' };
      try {
        await enqueue(run.id);
      } catch (cause) {
        await withdrawRun(run.id, extractorId, extractor.status);
        return { started: false, refusal: 'QUEUE_UNAVAILABLE', cause };
      }
      return { started: true, runId: run.id };
    },
  };
}
export type RunStarter = ReturnType<typeof createRunStarter>;
