import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { PrismaClient } from '@pagewright/db';
import { MAIL_JOBS, addJob, jobOf, messageMailJobId } from '@pagewright/shared';

/**
 * A worker that took a recipient's e-mail (SENDING) and has said nothing for this long stopped:
 * the e-mail is PENDING again. Far longer than one SMTP send.
 */
export const MESSAGE_MAIL_LEASE_MS = 10 * 60_000;

/** Rows one pass of the re-queue job handles (the next pass takes the rest). */
const REQUEUE_BATCH = 500;

/**
 * The message outbox's periodic job (issue 24): the API stores each recipient's e-mail PENDING in
 * the transaction of its message and queues the jobs after the commit. An e-mail still PENDING
 * `retryAfterMs` later (its job was never queued, or Redis lost it), or still SENDING after the
 * lease, is queued again. Sending stays at most once per success: the send job claims the row in
 * SQL (send-message-mail.processor.ts), so a second job for a sent e-mail does nothing.
 */
export function createMessageMailRequeue(deps: {
  db: PrismaClient;
  queue: Queue;
  retryAfterMs: number;
  log: Logger;
}) {
  const { db, queue, retryAfterMs, log } = deps;
  return async (): Promise<{ requeued: number }> => {
    const now = Date.now();
    const rows = await db.messageRecipient.findMany({
      where: {
        OR: [
          { mailState: 'PENDING', mailStateAt: { lt: new Date(now - retryAfterMs) } },
          { mailState: 'SENDING', mailStateAt: { lt: new Date(now - MESSAGE_MAIL_LEASE_MS) } },
        ],
      },
      orderBy: { mailStateAt: 'asc' },
      take: REQUEUE_BATCH,
      select: { id: true },
    });
    let requeued = 0;
    for (const { id } of rows) {
      // A job still waiting, delayed (a mail server that is away) or running is left alone; a
      // finished one (its tries spent) makes way for a new one.
      const jobId = messageMailJobId(id);
      const existing = await queue.getJob(jobId);
      const state = existing ? await existing.getState() : 'missing';
      if (state === 'failed' || state === 'completed') await existing?.remove();
      else if (state !== 'missing' && state !== 'unknown') continue;
      // PENDING again with a fresh time: the next pass leaves it to this job for a while.
      const { count } = await db.messageRecipient.updateMany({
        where: {
          id,
          OR: [
            { mailState: 'PENDING' },
            { mailState: 'SENDING', mailStateAt: { lt: new Date(Date.now() - MESSAGE_MAIL_LEASE_MS) } },
          ],
        },
        data: { mailState: 'PENDING', mailStateAt: new Date() },
      });
      if (count === 0) continue;
      await addJob(queue, MAIL_JOBS.sendMessage, { recipientId: id });
      requeued += 1;
    }
    if (requeued > 0) log.warn({ requeued }, 'queued message e-mails again (their jobs were gone)');
    return { requeued };
  };
}

/** Keeps the re-queue job's scheduler (idempotent: run at start and when Redis comes back). */
export async function scheduleMessageMailRequeue(queue: Queue, everyMs: number): Promise<void> {
  const requeue = MAIL_JOBS.requeuePendingMessageMails;
  await queue.upsertJobScheduler(requeue.name, { every: everyMs }, jobOf(requeue, {}));
}
