import type pg from 'pg';
import type { FileStorage, Prisma, PrismaClient } from '@pagewright/db';
import type { RecipientKind } from '@pagewright/shared';

/**
 * Who reads: a signed-in account, or the holder of a recipient's e-mailed link (who may have no
 * account). A link opens one thread only.
 */
export type MessageReader =
  | { kind: 'account'; userId: string; email: string }
  | {
      kind: 'link';
      recipientId: string;
      /** Lower-case address the link was sent to. */
      email: string;
      userId: string | null;
      /** The message the link was sent with. */
      messageId: string;
      /** The thread's first message: the only thread the link opens. */
      threadId: string;
      token: string;
    };

const messageSelect = {
  id: true,
  senderId: true,
  fromAddress: true,
  toLine: true,
  ccLine: true,
  bccLine: true,
  subject: true,
  body: true,
  sentAt: true,
  replyOfId: true,
  attachments: {
    orderBy: { createdAt: 'asc' },
    select: { file: { select: { id: true, name: true, size: true, mimeType: true } } },
  },
} satisfies Prisma.MessageSelect;
export type MessageRow = Prisma.MessageGetPayload<{ select: typeof messageSelect }>;

/** Messages the reader took part in: wrote, or was sent (To, Cc or Bcc). */
function takesPart(reader: MessageReader): Prisma.MessageWhereInput {
  return reader.kind === 'account'
    ? { OR: [{ senderId: reader.userId }, { recipients: { some: { userId: reader.userId } } }] }
    : {
        OR: [
          { fromAddress: { equals: reader.email, mode: 'insensitive' } },
          { recipients: { some: { email: reader.email } } },
        ],
      };
}

/**
 * What a reader may open: the messages they took part in, and the first message of a thread they
 * took part in (a reply makes sense only with what it answers). A link holder sees only its thread.
 */
function readableBy(reader: MessageReader): Prisma.MessageWhereInput {
  const ownOrThreadStart: Prisma.MessageWhereInput = {
    OR: [takesPart(reader), { replyOfId: null, replies: { some: takesPart(reader) } }],
  };
  if (reader.kind === 'account') return ownOrThreadStart;
  return {
    AND: [
      { OR: [{ id: reader.threadId }, { replyOfId: reader.threadId }] },
      { OR: [{ id: reader.threadId }, takesPart(reader)] },
    ],
  };
}

/** A new message's rows, as the service decided them. */
export interface NewMessage {
  senderId: string | null;
  fromAddress: string;
  toLine: string;
  ccLine: string;
  bccLine: string;
  subject: string;
  body: string;
  replyOfId: string | null;
  recipients: { email: string; kind: RecipientKind }[];
  attachments: { name: string; mimeType: string; content: Buffer }[];
  /** Owner of the attached files (the writer's account, or the thread's for an outside writer). */
  fileOwnerId: string | null;
  /** The recipient row whose link the reply is written through (null with a session). */
  viaRecipientId: string | null;
}

/**
 * What the writer has used, counted inside the transaction that stores the message (under a lock
 * per account, link and file owner, so two sends at once cannot both pass the last unit).
 */
export interface MessageUsage {
  /** Messages and recipients of the account in the last 24 hours (0 without an account). */
  accountSends: number;
  accountRecipients: number;
  /** Replies and recipients through the link in the last 24 hours (0 without a link). */
  linkSends: number;
  linkRecipients: number;
  /** Bytes of message attachments the file owner keeps (only counted when files are attached). */
  ownerAttachmentBytes: number;
  /** Bytes replies through links attached to the thread, under the owner (only with files). */
  threadLinkAttachmentBytes: number;
}

const DAY_MS = 24 * 60 * 60_000;

export interface ListCursor {
  at: Date;
  id: string;
}

interface ListRow {
  id: string;
  fromAddress: string;
  toLine: string;
  ccLine: string;
  bccLine: string;
  subject: string;
  sentAt: Date;
  replyOfId: string | null;
  attachmentCount: number;
  isRead: boolean;
  cursorAt: Date;
  cursorId: string;
}

/**
 * Timestamps are stored as UTC without a zone (Prisma's way); read and compared here as UTC
 * instants, whatever the server's own zone.
 *
 * The dashboard lists in one statement each, walking their index backwards from the cursor: an
 * inbox of any size answers a page in the time of a page (bench/messages.bench.ts).
 */
const RECEIVED_SQL = `
  SELECT m.id, m."fromAddress", m."toLine", m."ccLine", '' AS "bccLine", m.subject,
         m."sentAt" AT TIME ZONE 'UTC' AS "sentAt", m."replyOfId", r."readAt" IS NOT NULL AS "isRead",
         (SELECT count(*) FROM "MessageAttachment" a WHERE a."messageId" = m.id)::int AS "attachmentCount",
         r."createdAt" AT TIME ZONE 'UTC' AS "cursorAt", r.id AS "cursorId"
    FROM "MessageRecipient" r
    JOIN "Message" m ON m.id = r."messageId"
   WHERE r."userId" = $1 AND r."deletedAt" IS NULL
     AND ($2::timestamptz IS NULL OR (r."createdAt", r.id) < ($2::timestamptz AT TIME ZONE 'UTC', $3::uuid))
   ORDER BY r."createdAt" DESC, r.id DESC
   LIMIT $4`;

const SENT_SQL = `
  SELECT m.id, m."fromAddress", m."toLine", m."ccLine", m."bccLine", m.subject,
         m."sentAt" AT TIME ZONE 'UTC' AS "sentAt", m."replyOfId", true AS "isRead",
         (SELECT count(*) FROM "MessageAttachment" a WHERE a."messageId" = m.id)::int AS "attachmentCount",
         m."sentAt" AT TIME ZONE 'UTC' AS "cursorAt", m.id AS "cursorId"
    FROM "Message" m
   WHERE m."senderId" = $1 AND m."senderDeletedAt" IS NULL
     AND ($2::timestamptz IS NULL OR (m."sentAt", m.id) < ($2::timestamptz AT TIME ZONE 'UTC', $3::uuid))
   ORDER BY m."sentAt" DESC, m.id DESC
   LIMIT $4`;

/** Messages, recipients and attached files in PostgreSQL; every read is scoped to its reader. */
export function createMessageRepository(db: PrismaClient, sql: pg.Pool, files: FileStorage) {
  async function list(statement: string, userId: string, cursor: ListCursor | null, limit: number) {
    const { rows } = await sql.query<ListRow>(statement, [
      userId,
      cursor?.at.toISOString() ?? null,
      cursor?.id ?? null,
      limit,
    ]);
    return rows;
  }

  return {
    /**
     * Stores the message, its recipients (each e-mail PENDING: the outbox) and files in one
     * transaction. `checkUsage` sees the writer's usage first and throws to refuse the send.
     */
    async create(message: NewMessage, checkUsage: (usage: MessageUsage) => void) {
      return db.$transaction(
        async (tx) => {
          const accountId = message.senderId;
          const linkId = message.viaRecipientId;
          const hasFiles = message.attachments.length > 0;
          const locks = [
            accountId ? `message-account:${accountId}` : null,
            linkId ? `message-link:${linkId}` : null,
            hasFiles && message.fileOwnerId ? `message-files:${message.fileOwnerId}` : null,
          ]
            .filter((key): key is string => key !== null)
            .sort();
          for (const key of locks) {
            await tx.$queryRaw`SELECT count(*)::int AS n FROM (SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))) AS l`;
          }
          const since = new Date(Date.now() - DAY_MS);
          const [accountSends, accountRecipients, linkSends, linkRecipients, ownerFiles, threadLinkFiles] =
            await Promise.all([
              accountId ? tx.message.count({ where: { senderId: accountId, sentAt: { gte: since } } }) : 0,
              accountId
                ? tx.messageRecipient.count({
                    where: { message: { senderId: accountId, sentAt: { gte: since } } },
                  })
                : 0,
              linkId ? tx.message.count({ where: { viaRecipientId: linkId, sentAt: { gte: since } } }) : 0,
              linkId
                ? tx.messageRecipient.count({
                    where: { message: { viaRecipientId: linkId, sentAt: { gte: since } } },
                  })
                : 0,
              hasFiles && message.fileOwnerId
                ? tx.storedFile.aggregate({
                    _sum: { size: true },
                    where: { userId: message.fileOwnerId, messageAttachments: { some: {} } },
                  })
                : null,
              hasFiles && linkId && message.fileOwnerId && message.replyOfId
                ? tx.storedFile.aggregate({
                    _sum: { size: true },
                    where: {
                      userId: message.fileOwnerId,
                      messageAttachments: {
                        some: { message: { replyOfId: message.replyOfId, viaRecipientId: { not: null } } },
                      },
                    },
                  })
                : null,
            ]);
          checkUsage({
            accountSends,
            accountRecipients,
            linkSends,
            linkRecipients,
            ownerAttachmentBytes: ownerFiles?._sum.size ?? 0,
            threadLinkAttachmentBytes: threadLinkFiles?._sum.size ?? 0,
          });
          const accounts = await tx.user.findMany({
            where: { email: { in: message.recipients.map(({ email }) => email) } },
            select: { id: true, email: true },
          });
          const accountOf = new Map(accounts.map((account) => [account.email, account.id]));
          const created = await tx.message.create({
            data: {
              senderId: message.senderId,
              fromAddress: message.fromAddress,
              toLine: message.toLine,
              ccLine: message.ccLine,
              bccLine: message.bccLine,
              subject: message.subject,
              body: message.body,
              replyOfId: message.replyOfId,
              viaRecipientId: message.viaRecipientId,
              recipients: {
                create: message.recipients.map(({ email, kind }) => ({
                  email,
                  kind,
                  userId: accountOf.get(email) ?? null,
                })),
              },
            },
            select: { id: true, recipients: { select: { id: true, userId: true } } },
          });
          if (message.attachments.length > 0) {
            const fileOwnerId = message.fileOwnerId;
            if (fileOwnerId === null) throw new Error('Attached files need an owner');
            for (const attachment of message.attachments) {
              const fileId = await files.put(
                attachment.content,
                { userId: fileOwnerId, name: attachment.name, mimeType: attachment.mimeType },
                tx,
              );
              await tx.messageAttachment.create({ data: { messageId: created.id, fileId } });
            }
          }
          return created;
        },
        // A message with 25 MB of files takes a while to write.
        { timeout: 60_000, maxWait: 10_000 },
      );
    },

    /** The message if the reader may open it. */
    findReadable(reader: MessageReader, id: string): Promise<MessageRow | null> {
      return db.message.findFirst({ where: { AND: [{ id }, readableBy(reader)] }, select: messageSelect });
    },

    /** The replies of a thread the reader may open, newest first. */
    findReplies(reader: MessageReader, threadId: string): Promise<MessageRow[]> {
      return db.message.findMany({
        where: { AND: [{ replyOfId: threadId }, readableBy(reader)] },
        orderBy: [{ sentAt: 'desc' }, { id: 'desc' }],
        select: messageSelect,
      });
    },

    /** The live link behind a token's hash, with its message's thread. */
    findLink(tokenHash: string, now: Date) {
      return db.messageRecipient.findFirst({
        where: { tokenHash, tokenExpiresAt: { gt: now } },
        select: { id: true, email: true, userId: true, message: { select: { id: true, replyOfId: true } } },
      });
    },

    /** Marks the reader's copies of a message opened (the first time only). */
    async markRead(reader: MessageReader, messageId: string, now: Date): Promise<void> {
      const whose =
        reader.kind === 'account' ? { userId: reader.userId } : { id: reader.recipientId, messageId };
      await db.messageRecipient.updateMany({
        where: { messageId, readAt: null, ...whose },
        data: { readAt: now },
      });
    },

    /** Every address of a thread (its writers and recipients), lower-case: who a link holder may answer. */
    async threadAddresses(threadId: string): Promise<Set<string>> {
      const rows = await db.message.findMany({
        where: { OR: [{ id: threadId }, { replyOfId: threadId }] },
        select: { fromAddress: true, recipients: { select: { email: true } } },
      });
      return new Set(
        rows.flatMap(({ fromAddress, recipients }) => [
          fromAddress.toLowerCase(),
          ...recipients.map(({ email }) => email.toLowerCase()),
        ]),
      );
    },

    /** The account that owns a thread's first message (owner of an outside writer's files). */
    async threadOwner(threadId: string): Promise<string | null> {
      const root = await db.message.findUnique({ where: { id: threadId }, select: { senderId: true } });
      return root?.senderId ?? null;
    },

    received: (userId: string, cursor: ListCursor | null, limit: number) =>
      list(RECEIVED_SQL, userId, cursor, limit),
    sent: (userId: string, cursor: ListCursor | null, limit: number) => list(SENT_SQL, userId, cursor, limit),

    /** Removes the message from the caller's lists (sent, received or both); false when it is in neither. */
    async removeFromLists(userId: string, id: string, now: Date): Promise<boolean> {
      return db.$transaction(async (tx) => {
        const sent = await tx.message.updateMany({
          where: { id, senderId: userId, senderDeletedAt: null },
          data: { senderDeletedAt: now },
        });
        const received = await tx.messageRecipient.updateMany({
          where: { messageId: id, userId, deletedAt: null },
          data: { deletedAt: now },
        });
        return sent.count + received.count > 0;
      });
    },

    /** An attached file of a message the reader may open, with its bytes. */
    async findAttachment(reader: MessageReader, fileId: string) {
      const attachment = await db.messageAttachment.findFirst({
        where: { fileId, message: readableBy(reader) },
        select: { file: { select: { id: true, userId: true } } },
      });
      if (!attachment) return null;
      return files.get(attachment.file.id, attachment.file.userId);
    },
  };
}
export type MessageRepository = ReturnType<typeof createMessageRepository>;
