import type { Job } from 'bullmq';
import type { JobAnswer, JobCatalogue, JobDefinition } from '@pagewright/shared';

/**
 * Processes one kind of job: it answers what the kind's result schema accepts (the payload is
 * the processor's to parse, with the kind's payload schema).
 */
export type JobHandler<D extends JobDefinition, J = Job> = (job: J) => Promise<JobAnswer<D>>;

/**
 * A handler for every kind of a queue's catalogue: a kind added to the catalogue without a
 * handler, or a handler answering what its kind's result schema does not accept, is a type error.
 * `J`: BullMQ's job, or a sandboxed processor's.
 */
export type QueueHandlers<C extends JobCatalogue, J = Job> = { [K in keyof C]: JobHandler<C[K], J> };

/**
 * One queue's processor: each job goes to the handler of its kind, found by its name. A job of a
 * name the catalogue does not know fails (it is not guessed at); a catalogue that mixes queues or
 * names two kinds alike, or a kind without a handler, stops the worker at start.
 */
export function dispatchJobs<C extends JobCatalogue, J extends { name: string } = Job>(
  catalogue: C,
  handlers: QueueHandlers<C, J>,
): (job: J) => Promise<unknown> {
  const byName = new Map<string, (job: J) => Promise<unknown>>();
  let queue: JobDefinition['queue'] | undefined;
  for (const [key, definition] of Object.entries(catalogue)) {
    queue ??= definition.queue;
    if (definition.queue !== queue)
      throw new Error(`The job ${definition.name} is not of the queue ${String(queue)}`);
    if (byName.has(definition.name)) throw new Error(`Two kinds of job are named ${definition.name}`);
    const handler = handlers[key];
    if (!handler) throw new Error(`No handler for the job ${definition.name}`);
    byName.set(definition.name, handler);
  }
  return async (job) => {
    const handler = byName.get(job.name);
    if (!handler) throw new Error(`Unknown job ${job.name} on the queue ${String(queue)}`);
    return handler(job);
  };
}
