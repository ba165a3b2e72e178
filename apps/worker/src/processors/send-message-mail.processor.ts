import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { hashToken, newOpaqueToken, type PrismaClient } from '@pagewright/db';
import type { Mailer } from '@pagewright/mail';
import { sendMessageMailPayloadSchema } from '@pagewright/shared';
import { messageMail } from '../messages/message-mail.js';

/**
 * How long a job waits for its recipient row: the API adds the job inside the transaction that
 * writes the row, so a row still missing after this means the transaction rolled back.
 */
const MISSING_RECIPIENT_GIVE_UP_MS = 10 * 60_000;

/**
 * Sends one recipient's e-mail of a message (MAIL_JOBS.sendMessage). Their link token is minted
 * here, right before sending, and only its hash is stored: the token exists nowhere but in the
 * e-mail. A failed try mints a new one on the next (the old one never reached anybody); a copy
 * already accepted by the mail server is not sent again.
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
    const recipient = await db.messageRecipient.findUnique({
      where: { id: recipientId },
      select: {
        email: true,
        mailedAt: true,
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
    if (!recipient) {
      if (Date.now() - job.timestamp < MISSING_RECIPIENT_GIVE_UP_MS)
        throw new Error('recipient not stored yet');
      log.warn({ jobId: job.id }, 'message e-mail dropped: its message was never stored');
      return;
    }
    if (recipient.mailedAt) return;

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
    await db.messageRecipient.update({ where: { id: recipientId }, data: { mailedAt: new Date() } });
  };
}
