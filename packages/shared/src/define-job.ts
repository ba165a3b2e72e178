import { z } from 'zod';

/**
 * The options a job is queued with: the part of BullMQ's `JobsOptions` the catalogue uses (this
 * package is the SPA's too: it describes BullMQ's options without importing it).
 */
export type JobOptions = {
  jobId?: string;
  priority?: number;
  attempts?: number;
  backoff?: { type: string; delay?: number };
  removeOnComplete?: boolean | number | KeptJobs;
  removeOnFail?: boolean | number | KeptJobs;
};
/** Which finished jobs BullMQ keeps: the last `count`, or those younger than `age` seconds. */
type KeptJobs = { count: number } | { age: number; count?: number };

/**
 * Where a job goes: a queue's name, or how the name is made for the queue of one owner (the live
 * session commands go to the queue of the worker that holds the page).
 */
export type JobQueue = string | ((owner: string) => string);

/**
 * One kind of job, declared once: its queue, its name on the wire (BullMQ's `job.name`, what the
 * worker dispatches on), what it carries, what the worker answers, how it is queued.
 */
export interface JobDefinition<
  Queue extends JobQueue = JobQueue,
  Name extends string = string,
  Payload extends z.ZodType = z.ZodType,
  Result extends z.ZodType = z.ZodType,
> {
  readonly queue: Queue;
  readonly name: Name;
  readonly payload: Payload;
  /** The job's return value: whoever waits for a job parses it with this (parseJobResult). */
  readonly result: Result;
  /** What every job of this kind is queued with; a call adds what only it knows (a priority). */
  readonly options: JobOptions;
  /** The job's id from its payload, for a kind queued at most once per thing (a run, a delivery). */
  jobId?(payload: z.input<Payload>): string;
}

/** A queue's jobs by a short key (each `*_JOBS` of jobs.ts): the worker has one handler per key. */
export type JobCatalogue = Readonly<Record<string, JobDefinition>>;

/** What a job of this kind carries, as it is queued. */
export type JobPayload<D extends JobDefinition> = z.input<D['payload']>;
/** What the worker's handler of this kind returns. */
export type JobAnswer<D extends JobDefinition> = z.input<D['result']>;
/** What whoever waits for the job reads, once parsed. */
export type JobResult<D extends JobDefinition> = z.output<D['result']>;

/** Declares a kind of job; the literal queue and name stay in its type. */
export function defineJob<
  const Queue extends JobQueue,
  const Name extends string,
  Payload extends z.ZodType,
  Result extends z.ZodType,
>(definition: JobDefinition<Queue, Name, Payload, Result>): JobDefinition<Queue, Name, Payload, Result> {
  return definition;
}

/**
 * One job of a kind as BullMQ's `addBulk` and `upsertJobScheduler` take it: its name, a payload of
 * its type, and its options (the kind's, its id from the payload, then `options`).
 */
export function jobOf<D extends JobDefinition>(
  definition: D,
  payload: JobPayload<D>,
  options: JobOptions = {},
): { name: D['name']; data: JobPayload<D>; opts: JobOptions } {
  const jobId = definition.jobId?.(payload);
  return {
    name: definition.name,
    data: payload,
    opts: { ...definition.options, ...(jobId === undefined ? {} : { jobId }), ...options },
  };
}

/** What `addJob` needs of a queue: BullMQ's `Queue.add`. */
export interface JobQueueClient<D extends JobDefinition, J> {
  add(name: D['name'], data: JobPayload<D>, options: JobOptions): Promise<J>;
}

/** Queues one job of a kind (jobOf) and answers BullMQ's job. */
export function addJob<D extends JobDefinition, J>(
  queue: JobQueueClient<D, J>,
  definition: D,
  payload: JobPayload<D>,
  options?: JobOptions,
): Promise<J> {
  const job = jobOf(definition, payload, options);
  return queue.add(job.name, job.data, job.opts);
}

/** A job's answer that is not what its kind's result schema says: the two sides disagree. */
export class JobResultError extends Error {
  constructor(
    readonly jobName: string,
    readonly issues: z.core.$ZodIssue[],
  ) {
    super(
      `The answer to the job ${jobName} does not match its result schema: ${issues
        .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
        .join('; ')}`,
    );
    this.name = 'JobResultError';
  }
}

/** A job's return value read through its kind's result schema: never cast, refused when it differs. */
export function parseJobResult<D extends JobDefinition>(definition: D, value: unknown): JobResult<D> {
  const parsed = z.safeParse<D['result']>(definition.result, value);
  if (!parsed.success) throw new JobResultError(definition.name, parsed.error.issues);
  return parsed.data;
}
