import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { hashToken, newOpaqueToken, type PrismaClient } from '@pagewright/db';
import type { Mailer } from '@pagewright/mail';
import { sendMessageMailPayloadSchema } from '@pagewright/shared';
import { MESSAGE_MAIL_LEASE_MS } from '../messages/message-outbox.js';
import { messageMail } from '../messages/message-mail.js';

/**
 * Sends one recipient's e-mail of a message (MAIL_JOBS.sendMessage). The job is queued after the
 * message's transaction committed (the outbox, issue 24): the row is there, PENDING. The job claims
 * it in SQL (PENDING, or a SENDING whose worker went quiet, becomes SENDING), so two jobs for one
 * recipient never both send, and a SENT e-mail is never sent again. Their link token is minted here,
 * right before sending, and only its hash is stored: the token exists nowhere but in the e-mail. A
 * failed try puts the row back to PENDING and mints a new token on the next (the old one never
 * reached anybody).
 */
export function createSendMessageMailProcessor(deps: {
  db: PrismaClient;
  mailer: Mailer;
  publicUrl: string;
  linkTtlDays: number;
  log: Logger;
}) {
  const { db, mailer, publicUrl, linkTtlDays, log } = deps;
  return async (job: Job) => {
    const { recipientId } = sendMessageMailPayloadSchema.parse(job.data);
    const { count } = await db.messageRecipient.updateMany({
      where: {
        id: recipientId,
        OR: [
          { mailState: 'PENDING' },
          { mailState: 'SENDING', mailStateAt: { lt: new Date(Date.now() - MESSAGE_MAIL_LEASE_MS) } },
        ],
      },
      data: { mailState: 'SENDING', mailStateAt: new Date() },
    });
    if (count === 0) {
      // Sent already, being sent by another job, or its message is gone.
      log.debug({ jobId: job.id }, 'message e-mail not claimed: sent, in hand, or gone');
      return;
    }
    try {
      const recipient = await db.messageRecipient.findUniqueOrThrow({
        where: { id: recipientId },
        select: {
          email: true,
          message: {
            select: {
              fromAddress: true,
              toLine: true,
              ccLine: true,
              subject: true,
              body: true,
              attachments: { orderBy: { createdAt: 'asc' }, select: { file: { select: { name: true } } } },
            },
          },
        },
      });
      const token = newOpaqueToken();
      const linkExpiresAt = new Date(Date.now() + linkTtlDays * 24 * 60 * 60_000);
      await db.messageRecipient.update({
        where: { id: recipientId },
        data: { tokenHash: hashToken(token), tokenExpiresAt: linkExpiresAt },
      });
      const { message } = recipient;
      await mailer.send(
        messageMail({
          recipient: recipient.email,
          fromAddress: message.fromAddress,
          toLine: message.toLine,
          ccLine: message.ccLine,
          subject: message.subject,
          body: message.body,
          attachmentNames: message.attachments.map(({ file }) => file.name),
          link: new URL(`/message/token/${encodeURIComponent(token)}`, publicUrl).href,
          linkExpiresAt,
        }),
      );
    } catch (error) {
      // Not sent: PENDING again, for this job's next try (or the re-queue job).
      await db.messageRecipient
        .updateMany({
          where: { id: recipientId, mailState: 'SENDING' },
          data: { mailState: 'PENDING', mailStateAt: new Date() },
        })
        .catch(() => undefined);
      throw error;
    }
    const now = new Date();
    await db.messageRecipient.update({
      where: { id: recipientId },
      data: { mailState: 'SENT', mailStateAt: now, mailedAt: now },
    });
  };
}
