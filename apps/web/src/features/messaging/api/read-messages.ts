import { z } from 'zod';
import { MESSAGE_TOKEN_HEADER, messageDtoSchema, type MessageDto } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** A link holder's page sends its token with every later call (no session needed). */
const linkHeaders = (linkToken: string | null): Record<string, string> =>
  linkToken ? { [MESSAGE_TOKEN_HEADER]: linkToken } : {};

/** GET /message/token/{token}: the message the e-mailed link was sent with. */
export function readMessageByToken(token: string): Promise<MessageDto> {
  return apiRequest(`/message/token/${encodeURIComponent(token)}`, { schema: messageDtoSchema, quiet: true });
}

/** GET /message/id/{id}: with the session, or the link's token. */
export function readMessageById(id: string, linkToken: string | null): Promise<MessageDto> {
  return apiRequest(`/message/id/${encodeURIComponent(id)}`, {
    schema: messageDtoSchema,
    quiet: true,
    headers: linkHeaders(linkToken),
  });
}

/** GET /message/reply-of/{id}: the thread's replies, newest first. */
export function readReplies(id: string, linkToken: string | null): Promise<MessageDto[]> {
  return apiRequest(`/message/reply-of/${encodeURIComponent(id)}`, {
    schema: z.array(messageDtoSchema),
    quiet: true,
    headers: linkHeaders(linkToken),
  });
}

/** The viewer's thread queries (`[...key, by]`): a sent reply makes them stale. */
export const MESSAGE_THREAD_QUERY_KEY = ['message-thread'] as const;

export interface MessageThread {
  /** The message the page was opened for (by id or by token): Reply All answers it. */
  opened: MessageDto;
  /** Replies first (newest first), the first message last (data spec §2). */
  messages: MessageDto[];
  linkToken: string | null;
}

/**
 * What the viewer shows (data spec §2): the message by id or token, then its thread's first
 * message (its replyOf, or itself) and that message's replies.
 */
export async function readThread(by: { id: string } | { token: string }): Promise<MessageThread> {
  const linkToken = 'token' in by ? by.token : null;
  const opened = 'token' in by ? await readMessageByToken(by.token) : await readMessageById(by.id, null);
  const first = opened.replyOf === null ? opened : await readMessageById(opened.replyOf, linkToken);
  const replies = await readReplies(first.id, linkToken);
  return { opened, messages: [...replies, first], linkToken };
}
