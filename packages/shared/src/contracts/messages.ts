import * as z from './zod.js';
import {
  MESSAGE_ATTACHMENTS_MAX,
  MESSAGE_FIELD_MAX_LENGTH,
  MESSAGE_LIST_PAGE_SIZE,
  MESSAGE_LIST_PAGE_SIZE_MAX,
  MESSAGE_SUBJECT_LIST_CUT,
  MESSAGE_SUBJECT_LIST_MAX,
  RECIPIENT_SEPARATOR,
} from '../constants.js';
import { formatMessage, MESSAGES } from '../messages.js';
import { EMAIL_PATTERN, isOneLine } from '../validation.js';

/**
 * Internal messaging (data spec §2-§9, issue 14): the /message calls. A message goes to
 * ";"-separated addresses; each recipient gets an e-mail with a link of their own
 * (/message/token/<token>) that opens the thread without a session.
 */

/** The header a link holder sends instead of a session (the viewer's later calls on a token page). */
export const MESSAGE_TOKEN_HEADER = 'x-message-token';

/** The addresses of a To/Cc/Bcc line: split on ";", trimmed, empty parts dropped. */
export function splitRecipients(line: string | null | undefined): string[] {
  return (line ?? '')
    .split(RECIPIENT_SEPARATOR)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/** The list's subject: cut to 27 characters plus an ellipsis when longer than 30 (data spec §2). */
export function listSubject(subject: string): string {
  return subject.length > MESSAGE_SUBJECT_LIST_MAX
    ? `${subject.slice(0, MESSAGE_SUBJECT_LIST_CUT)}...`
    : subject;
}

type RecipientField = 'TO' | 'CC' | 'BCC';

function recipientLine(field: RecipientField, isRequired: boolean) {
  const base = z
    .string()
    .max(
      MESSAGE_FIELD_MAX_LENGTH,
      formatMessage('message.field.too.long', { field, max: MESSAGE_FIELD_MAX_LENGTH }),
    )
    .superRefine((line, context) => {
      const addresses = splitRecipients(line);
      if (isRequired && addresses.length === 0) {
        context.addIssue({ code: 'custom', message: MESSAGES['message.to.required'] });
        return;
      }
      const invalid = addresses.find((address) => !EMAIL_PATTERN.test(address));
      if (invalid !== undefined) {
        context.addIssue({
          code: 'custom',
          message: formatMessage('message.address.invalid', { field, address: invalid }),
        });
      }
    });
  return isRequired
    ? z.string({ error: MESSAGES['message.to.required'] }).pipe(base)
    : base.nullish().transform((line) => line ?? '');
}

function requiredText(
  field: 'SUBJECT' | 'BODY',
  requiredKey: 'message.subject.required' | 'message.body.required',
) {
  return z
    .string({ error: MESSAGES[requiredKey] })
    .refine((text) => text.trim().length > 0, MESSAGES[requiredKey])
    .refine(
      (text) => text.length <= MESSAGE_FIELD_MAX_LENGTH,
      formatMessage('message.field.too.long', { field, max: MESSAGE_FIELD_MAX_LENGTH }),
    );
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/u;

/** One attached file as the spec sends it: the name and the bytes as base64 (no data-URL prefix). */
export const messageAttachmentUploadSchema = z
  .object({
    name: z
      .string({ error: MESSAGES['message.attachment.name.required'] })
      .trim()
      .min(1, MESSAGES['message.attachment.name.required'])
      .max(255, 'An attached file name must be at most 255 characters'),
    content: z.string(),
  })
  .superRefine(({ name, content }, context) => {
    if (content.length % 4 !== 0 || !BASE64.test(content)) {
      context.addIssue({
        code: 'custom',
        path: ['content'],
        message: formatMessage('message.attachment.not.base64', { name }),
      });
    }
  });

/**
 * POST /message/add and /message/reply. `from` is who the message is from: with a session the
 * signed-in account (the field is then ignored, so nobody writes as someone else); on a reply
 * without a session, the e-mail token of the link the replier opened (data spec §2, Reply All).
 */
export const sendMessageRequestSchema = z.object({
  replyOf: z.string().uuid().nullish(),
  from: z.string().max(MESSAGE_FIELD_MAX_LENGTH).nullish(),
  to: recipientLine('TO', true),
  cc: recipientLine('CC', false),
  bcc: recipientLine('BCC', false),
  // One line: a line break in a subject would end the e-mail's Subject header early.
  subject: requiredText('SUBJECT', 'message.subject.required').refine(
    isOneLine,
    MESSAGES['message.subject.line.break'],
  ),
  body: requiredText('BODY', 'message.body.required'),
  attachments: z
    .array(messageAttachmentUploadSchema)
    .max(
      MESSAGE_ATTACHMENTS_MAX,
      formatMessage('message.attachment.too.many', { max: MESSAGE_ATTACHMENTS_MAX }),
    )
    .nullish()
    .transform((attachments) => attachments ?? []),
});
export type SendMessageRequest = z.input<typeof sendMessageRequestSchema>;
export type SendMessage = z.output<typeof sendMessageRequestSchema>;

export const sendMessageResponseSchema = z.object({ id: z.string(), message: z.string() });
export type SendMessageResponse = z.infer<typeof sendMessageResponseSchema>;

export const messageAttachmentSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Bytes. */
  size: z.number().int(),
  /** Detected from the bytes (application/octet-stream when unknown). */
  mimeType: z.string(),
});
export type MessageAttachment = z.infer<typeof messageAttachmentSchema>;

/**
 * Message (read), data spec §3. `bcc` is empty unless the caller sent this message; `emailToken`
 * is the caller's own link token on a token page (what Reply All sends as `from`), else null.
 */
export const messageDtoSchema = z.object({
  id: z.string(),
  from: z.string(),
  to: z.string(),
  cc: z.string(),
  bcc: z.string(),
  subject: z.string(),
  /** ISO 8601. */
  datetime: z.string(),
  body: z.string(),
  attachments: z.array(messageAttachmentSchema),
  /** The thread's first message, or null for a first message. */
  replyOf: z.string().nullable(),
  emailToken: z.string().nullable(),
  /** The address the caller reads this message as (the link's recipient, or the signed-in account). */
  readerEmail: z.string(),
});
export type MessageDto = z.infer<typeof messageDtoSchema>;

/** A row of the dashboard's sent or received list (no body: the viewer reads it). */
export const messageListItemSchema = messageDtoSchema
  .omit({ body: true, attachments: true, emailToken: true, readerEmail: true })
  .extend({
    attachmentCount: z.number().int(),
    /** Received: whether the caller opened it; sent: always true. */
    isRead: z.boolean(),
  });
export type MessageListItem = z.infer<typeof messageListItemSchema>;

/** ?limit= (default 50, at most 200) and ?before= (the last row's `cursor`, for the next page). */
export const messageListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MESSAGE_LIST_PAGE_SIZE_MAX).default(MESSAGE_LIST_PAGE_SIZE),
  before: z.string().max(100).optional(),
});
export type MessageListQuery = z.input<typeof messageListQuerySchema>;

export const messageListResponseSchema = z.object({
  messages: z.array(messageListItemSchema),
  /** Pass as ?before= to read the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type MessageListResponse = z.infer<typeof messageListResponseSchema>;

export const messageIdParamsSchema = z.object({ id: z.string().uuid() });
export const messageTokenParamsSchema = z.object({ token: z.string().min(1).max(200) });

/** GET /message/attachment/{id} with `Accept: application/json` (the spec's shape). */
export const messageAttachmentContentSchema = z.object({ name: z.string(), content: z.string() });
export type MessageAttachmentContent = z.infer<typeof messageAttachmentContentSchema>;

/** What Reply All carries to /messaging-new (data spec §2). */
export interface ReplyAllPrefill {
  replyOf: string;
  from: string;
  subject: string;
  to: string;
  cc: string;
}

/**
 * Reply All (data spec §2): To is the sender plus the original recipients, unless the sender is
 * already among them (then the recipients only); the original Cc stays Cc (issue 23). The replier
 * (`readerEmail`) is left out of both lines, unless To would then be empty (a note to oneself): it
 * goes back to the sender. An address stays on the first line that names it. From is the caller's
 * e-mail token when the page has one, otherwise the sender; `replyOf` is the thread's first message.
 */
export function replyAllPrefill(
  message: Pick<
    MessageDto,
    'id' | 'from' | 'to' | 'cc' | 'subject' | 'replyOf' | 'emailToken' | 'readerEmail'
  >,
): ReplyAllPrefill {
  const recipients = splitRecipients(message.to);
  const sender = message.from.trim();
  const key = (address: string) => address.toLowerCase();
  const hasSender = recipients.some((address) => key(address) === key(sender));
  const named = new Set([key(message.readerEmail.trim())]);
  const keep = (addresses: string[]) =>
    addresses.filter((address) => {
      if (named.has(key(address))) return false;
      named.add(key(address));
      return true;
    });
  const to = keep(hasSender ? recipients : [sender, ...recipients]);
  const cc = keep(splitRecipients(message.cc));
  const subject = /^re:/iu.test(message.subject.trim()) ? message.subject : `Re: ${message.subject}`;
  return {
    replyOf: message.replyOf ?? message.id,
    from: message.emailToken ?? message.from,
    subject: subject.slice(0, MESSAGE_FIELD_MAX_LENGTH),
    to: (to.length > 0 ? to : [sender]).join(RECIPIENT_SEPARATOR),
    cc: cc.join(RECIPIENT_SEPARATOR),
  };
}
