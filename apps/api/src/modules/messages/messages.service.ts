import { hashToken } from '@pagewright/db';
import type { FastifyBaseLogger } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import pLimit from 'p-limit';
import {
  MAIL_JOBS,
  MESSAGES,
  jobOf,
  publishLiveEvent,
  splitRecipients,
  type LiveEventPublisher,
  type MessageDto,
  type MessageListResponse,
  type RecipientKind,
  type SendMessage,
  formatMessage,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import type { MailQueue } from '../../plugins/queues.js';
import type {
  ListCursor,
  MessageReader,
  MessageRepository,
  MessageRow,
  MessageUsage,
} from './messages.repository.js';

/** The signed-in caller, when there is one. */
export interface MessageAccount {
  id: string;
  /** Lower-case e-mail address (the username). */
  username: string;
}

/** Messaging limits (issue 24), from the API's config. */
export interface MessageLimits {
  recipientsMax: number;
  accountSendsPerDay: number;
  accountRecipientsPerDay: number;
  linkSendsPerDay: number;
  linkRecipientsPerDay: number;
  linkAttachmentsMaxMb: number;
  attachmentsQuotaMb: number;
}

const MB = 1024 * 1024;

const FIELD_OF_KIND: Record<RecipientKind, 'to' | 'cc' | 'bcc'> = { TO: 'to', CC: 'cc', BCC: 'bcc' };

/**
 * Messages with files written at once by this process. While one is written its files are in
 * memory two or three times over (decoded, handed to the database driver); a burst of large sends
 * waits here instead of growing the heap by that much per message (bench:messages).
 */
const FILE_WRITES_AT_ONCE = 2;

function toDto(row: MessageRow, reader: MessageReader): MessageDto {
  const isSender =
    reader.kind === 'account'
      ? row.senderId === reader.userId
      : row.fromAddress.toLowerCase() === reader.email;
  return {
    id: row.id,
    from: row.fromAddress,
    to: row.toLine,
    cc: row.ccLine,
    // Bcc is the sender's to know (issue 14): nobody else is told who else got it.
    bcc: isSender ? row.bccLine : '',
    subject: row.subject,
    datetime: row.sentAt.toISOString(),
    body: row.body,
    attachments: row.attachments.map(({ file }) => file),
    replyOf: row.replyOfId,
    emailToken: reader.kind === 'link' ? reader.token : null,
    readerEmail: reader.email,
  };
}

/** Every address once, on the first line that names it (To before Cc before Bcc), lower-case. */
function recipientsOf(message: SendMessage): { email: string; kind: RecipientKind }[] {
  const seen = new Set<string>();
  const recipients: { email: string; kind: RecipientKind }[] = [];
  for (const [kind, line] of [
    ['TO', message.to],
    ['CC', message.cc],
    ['BCC', message.bcc],
  ] as const) {
    for (const address of splitRecipients(line)) {
      const email = address.toLowerCase();
      if (seen.has(email)) continue;
      seen.add(email);
      recipients.push({ email, kind });
    }
  }
  return recipients;
}

/** A file's name without folders or control characters (it becomes a download name). */
function safeFileName(name: string): string {
  const lastPart = name.split(/[/\\]/u).pop() ?? '';
  const isControl = (character: string) => character.charCodeAt(0) < 32 || character.charCodeAt(0) === 127;
  const base = [...lastPart]
    .filter((character) => !isControl(character))
    .join('')
    .trim();
  return (base.length > 0 ? base : 'file').slice(0, 255);
}

const CURSOR_PATTERN = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)_([0-9a-f-]{36})$/u;

function parseCursor(before: string | undefined): ListCursor | null {
  if (before === undefined || before === '') return null;
  const match = CURSOR_PATTERN.exec(before);
  const at = match ? new Date(match[1] ?? '') : null;
  if (!match || !at || Number.isNaN(at.getTime())) {
    throw AppError.validation('The list position (before) is not valid', 'before');
  }
  return { at, id: match[2] ?? '' };
}

/**
 * Internal messaging (data spec §2-§9, issue 14). A message is stored with one row per recipient;
 * each recipient's e-mail goes through the mail queue (the worker mints their link when it sends,
 * retrying while the mail server is away), so the send call never waits on, or fails with, SMTP.
 */
export function createMessageService(deps: {
  messages: MessageRepository;
  mailQueue: MailQueue;
  publisher: LiveEventPublisher;
  keyPrefix: string;
  limits: MessageLimits;
  log: FastifyBaseLogger;
}) {
  const { messages, mailQueue, publisher, keyPrefix, limits, log } = deps;
  const fileWrites = pLimit(FILE_WRITES_AT_ONCE);

  function accountReader(account: MessageAccount): MessageReader {
    return { kind: 'account', userId: account.id, email: account.username.toLowerCase() };
  }

  /** The reader a link token stands for, or null when it is unknown or expired. */
  async function linkReader(token: string): Promise<(MessageReader & { kind: 'link' }) | null> {
    const link = await messages.findLink(hashToken(token), new Date());
    if (!link) return null;
    return {
      kind: 'link',
      recipientId: link.id,
      email: link.email,
      userId: link.userId,
      messageId: link.message.id,
      threadId: link.message.replyOfId ?? link.message.id,
      token,
    };
  }

  /** A link token wins over the session: the page holding it reads as the link's recipient. */
  async function readerOf(account: MessageAccount | null, token: string | undefined): Promise<MessageReader> {
    if (token) {
      const reader = await linkReader(token);
      if (reader) return reader;
    }
    if (account) return accountReader(account);
    throw AppError.notFound(MESSAGES['message.not.found']);
  }

  async function readable(reader: MessageReader, id: string): Promise<MessageRow> {
    const row = await messages.findReadable(reader, id);
    if (!row) throw AppError.notFound(MESSAGES['message.not.found']);
    return row;
  }

  async function decodeAttachments(message: SendMessage) {
    return Promise.all(
      message.attachments.map(async ({ name, content }) => {
        const bytes = Buffer.from(content, 'base64');
        const detected = await fileTypeFromBuffer(bytes);
        return {
          name: safeFileName(name),
          mimeType: detected?.mime ?? 'application/octet-stream',
          content: bytes,
        };
      }),
    );
  }

  async function notifyRecipients(messageId: string, userIds: (string | null)[]): Promise<void> {
    const accounts = [...new Set(userIds.filter((id): id is string => id !== null))];
    await Promise.all(
      accounts.map((userId) =>
        publishLiveEvent(publisher, keyPrefix, userId, { type: 'message-received', messageId }).catch(
          (error: unknown) => log.warn({ err: error }, 'could not announce a new message'),
        ),
      ),
    );
  }

  /** Refuses a send past the writer's daily limits or storage (checked in the storing transaction). */
  function checkUsage(
    usage: MessageUsage,
    send: { isLink: boolean; hasAccount: boolean; recipients: number; attachmentBytes: number },
  ): void {
    const tooMany = (key: Parameters<typeof formatMessage>[0], max: number) =>
      new AppError('RATE_LIMITED', formatMessage(key, { max }));
    if (send.hasAccount) {
      if (usage.accountSends + 1 > limits.accountSendsPerDay)
        throw tooMany('message.account.sends.per.day', limits.accountSendsPerDay);
      if (usage.accountRecipients + send.recipients > limits.accountRecipientsPerDay)
        throw tooMany('message.account.recipients.per.day', limits.accountRecipientsPerDay);
    }
    if (send.isLink) {
      if (usage.linkSends + 1 > limits.linkSendsPerDay)
        throw tooMany('message.link.sends.per.day', limits.linkSendsPerDay);
      if (usage.linkRecipients + send.recipients > limits.linkRecipientsPerDay)
        throw tooMany('message.link.recipients.per.day', limits.linkRecipientsPerDay);
    }
    if (send.attachmentBytes === 0) return;
    if (
      send.isLink &&
      usage.threadLinkAttachmentBytes + send.attachmentBytes > limits.linkAttachmentsMaxMb * MB
    ) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        formatMessage('message.link.attachments.quota', { mb: limits.linkAttachmentsMaxMb }),
      );
    }
    if (usage.ownerAttachmentBytes + send.attachmentBytes > limits.attachmentsQuotaMb * MB) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        formatMessage('message.attachments.quota', { mb: limits.attachmentsQuotaMb }),
      );
    }
  }

  /** Queues the e-mails of committed recipient rows; the re-queue job sends any this misses. */
  async function queueMails(recipientIds: string[]): Promise<void> {
    try {
      await mailQueue.addBulk(
        recipientIds.map((recipientId) => jobOf(MAIL_JOBS.sendMessage, { recipientId })),
      );
    } catch (error) {
      log.warn({ err: error }, 'could not queue the e-mails of a message (the re-queue job will)');
    }
  }

  /**
   * Stores the message with each recipient's e-mail PENDING (the outbox), then queues the e-mails
   * once that has committed. A Redis that is away refuses the send whole before anything is stored.
   */
  async function store(
    author: {
      senderId: string | null;
      fromAddress: string;
      fileOwnerId: string | null;
      viaRecipientId: string | null;
    },
    message: SendMessage,
    replyOfId: string | null,
    recipients: { email: string; kind: RecipientKind }[],
  ) {
    try {
      await mailQueue.isPaused();
    } catch (error) {
      log.error({ err: error }, 'could not reach the mail queue');
      throw new AppError('SERVICE_UNAVAILABLE', MESSAGES['message.send.error']);
    }
    const write = async () => {
      const attachments = await decodeAttachments(message);
      const attachmentBytes = attachments.reduce((sum, { content }) => sum + content.length, 0);
      return messages.create(
        {
          ...author,
          toLine: message.to.trim(),
          ccLine: message.cc.trim(),
          bccLine: message.bcc.trim(),
          subject: message.subject,
          body: message.body,
          replyOfId,
          recipients,
          attachments,
        },
        (usage) =>
          checkUsage(usage, {
            isLink: author.viaRecipientId !== null,
            hasAccount: author.senderId !== null,
            recipients: recipients.length,
            attachmentBytes,
          }),
      );
    };
    const created = message.attachments.length > 0 ? await fileWrites(write) : await write();
    await queueMails(created.recipients.map(({ id }) => id));
    await notifyRecipients(
      created.id,
      created.recipients.map(({ userId }) => userId),
    );
    return { id: created.id, message: MESSAGES['message.sent'] };
  }

  /** Every address once, refused past the cap of one message (400). */
  function recipientsWithinCap(message: SendMessage) {
    const recipients = recipientsOf(message);
    if (recipients.length > limits.recipientsMax) {
      throw AppError.validation(
        formatMessage('message.recipients.too.many', { max: limits.recipientsMax }),
        'to',
      );
    }
    return recipients;
  }

  return {
    /** POST /message/add: a new thread from the signed-in account. */
    async send(account: MessageAccount, message: SendMessage) {
      const fromAddress = account.username.toLowerCase();
      const recipients = recipientsWithinCap(message);
      return store(
        { senderId: account.id, fromAddress, fileOwnerId: account.id, viaRecipientId: null },
        message,
        null,
        recipients,
      );
    },

    /**
     * POST /message/reply: from the link's recipient when `from` is a live link token of this
     * thread (a link holder may have no account), else from the signed-in account.
     */
    async reply(account: MessageAccount | null, message: SendMessage) {
      if (!message.replyOf) throw AppError.validation(MESSAGES['message.reply.of.required'], 'replyOf');
      const recipients = recipientsWithinCap(message);
      const link = message.from ? await linkReader(message.from) : null;
      const reader = link ?? (account ? accountReader(account) : null);
      if (!reader) throw new AppError('UNAUTHORIZED', MESSAGES['message.reply.sign.in']);
      const answered = await readable(reader, message.replyOf);
      const threadId = answered.replyOfId ?? answered.id;
      if (reader.kind === 'account') {
        return store(
          {
            senderId: reader.userId,
            fromAddress: reader.email,
            fileOwnerId: reader.userId,
            viaRecipientId: null,
          },
          message,
          threadId,
          recipients,
        );
      }
      // A link holder answers the conversation, nobody else: the link is no relay to any address.
      const participants = await messages.threadAddresses(threadId);
      const outsider = recipients.find(({ email }) => !participants.has(email));
      if (outsider) {
        throw new AppError(
          'FORBIDDEN',
          formatMessage('message.reply.outside.thread', { address: outsider.email }),
          FIELD_OF_KIND[outsider.kind],
        );
      }
      // An outside writer's files are kept under the account that started the thread.
      const fileOwnerId = reader.userId ?? (await messages.threadOwner(threadId));
      if (fileOwnerId === null && message.attachments.length > 0) {
        throw AppError.notFound(MESSAGES['message.not.found']);
      }
      return store(
        {
          senderId: reader.userId,
          fromAddress: reader.email,
          fileOwnerId,
          viaRecipientId: reader.recipientId,
        },
        message,
        threadId,
        recipients,
      );
    },

    /** GET /message/id/{id}: for those who took part (or a link of its thread); anyone else 404. */
    async readById(
      account: MessageAccount | null,
      token: string | undefined,
      id: string,
    ): Promise<MessageDto> {
      const reader = await readerOf(account, token);
      const row = await readable(reader, id);
      await messages.markRead(reader, row.id, new Date());
      return toDto(row, reader);
    },

    /** GET /message/token/{token}: the message the link was sent with. */
    async readByToken(token: string): Promise<MessageDto> {
      const reader = await linkReader(token);
      if (!reader) throw AppError.notFound(MESSAGES['error.invalid.token.parameter']);
      const row = await readable(reader, reader.messageId);
      await messages.markRead(reader, row.id, new Date());
      return toDto(row, reader);
    },

    /** GET /message/reply-of/{id}: the replies of a thread, newest first. */
    async replies(
      account: MessageAccount | null,
      token: string | undefined,
      id: string,
    ): Promise<MessageDto[]> {
      const reader = await readerOf(account, token);
      const thread = await readable(reader, id);
      const rows = await messages.findReplies(reader, thread.replyOfId ?? thread.id);
      return rows.map((row) => toDto(row, reader));
    },

    async received(account: MessageAccount, limit: number, before?: string): Promise<MessageListResponse> {
      return page(await messages.received(account.id, parseCursor(before), limit), limit);
    },

    async sent(account: MessageAccount, limit: number, before?: string): Promise<MessageListResponse> {
      return page(await messages.sent(account.id, parseCursor(before), limit), limit);
    },

    /** DELETE /message/{id}: off the caller's own lists; the other side keeps theirs. */
    async delete(account: MessageAccount, id: string): Promise<void> {
      if (!(await messages.removeFromLists(account.id, id, new Date()))) {
        throw AppError.notFound(MESSAGES['message.delete.error']);
      }
    },

    /** GET /message/attachment/{id}: a file of a message the caller may open. */
    async attachment(account: MessageAccount | null, token: string | undefined, fileId: string) {
      const reader = await readerOf(account, token);
      const file = await messages.findAttachment(reader, fileId);
      if (!file) throw AppError.notFound(MESSAGES['message.attachment.error']);
      return file;
    },
  };
}
export type MessageService = ReturnType<typeof createMessageService>;

function page(rows: Awaited<ReturnType<MessageRepository['received']>>, limit: number): MessageListResponse {
  const last = rows.at(-1);
  return {
    messages: rows.map((row) => ({
      id: row.id,
      from: row.fromAddress,
      to: row.toLine,
      cc: row.ccLine,
      bcc: row.bccLine,
      subject: row.subject,
      datetime: row.sentAt.toISOString(),
      replyOf: row.replyOfId,
      attachmentCount: row.attachmentCount,
      isRead: row.isRead,
    })),
    nextCursor: last && rows.length === limit ? `${last.cursorAt.toISOString()}_${last.cursorId}` : null,
  };
}
