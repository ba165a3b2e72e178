import * as z from './zod.js';
import { RUN_STATUSES } from '../enums.js';
import { pageDialogSchema } from './automation.js';

/**
 * Events pushed to a signed-in user's browsers over the WebSocket (/api/ws). Workers publish them
 * on the user's Redis channel; every API instance forwards them to that user's sockets only.
 */
export const liveEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), userId: z.string() }),
  z.object({
    type: z.literal('frame'),
    sessionId: z.string(),
    /** JPEG, base64. */
    data: z.string(),
    width: z.number().int(),
    height: z.number().int(),
  }),
  z.object({
    type: z.literal('validation-progress'),
    extractorId: z.string(),
    progress: z.number().min(0).max(100),
    actionType: z.string(),
    sequence: z.number().int(),
  }),
  z.object({
    type: z.literal('run-status'),
    extractorId: z.string(),
    runId: z.string(),
    status: z.enum(RUN_STATUSES),
    errorMessage: z.string().optional(),
  }),
  z.object({
    type: z.literal('pending-ask'),
    extractorId: z.string(),
    askId: z.string(),
    actionType: z.string(),
  }),
  z.object({ type: z.literal('session-lost'), sessionId: z.string(), reason: z.string() }),
  /** The builder's live page opened a JavaScript dialog: the operator answers it (issue 22). */
  z.object({ type: z.literal('page-dialog'), sessionId: z.string(), dialog: pageDialogSchema }),
  /** A template's sample PDF rendering: page k of n done (issue 15), or its end. */
  z.object({
    type: z.literal('template-render'),
    templateId: z.string(),
    page: z.number().int(),
    pageCount: z.number().int(),
    isDone: z.boolean(),
    error: z.string().optional(),
  }),
  /** A message reached the user's received list (issue 14): the dashboard reloads it at once. */
  z.object({ type: z.literal('message-received'), messageId: z.string() }),
]);
export type LiveEvent = z.infer<typeof liveEventSchema>;

/** The Redis pub/sub channel carrying one user's live events. */
export function userEventsChannel(keyPrefix: string, userId: string): string {
  return `${keyPrefix}events:user:${userId}`;
}

/** WebSocket close codes the client acts on (4000–4999 are the application's). */
export const LIVE_SOCKET_CLOSE = { unauthorized: 4401, passwordChangeRequired: 4403 } as const;

/** What publishing needs of a Redis client (ioredis fits; shared stays free of a Redis dependency). */
export interface LiveEventPublisher {
  publish(channel: string, message: string): Promise<unknown>;
}

/** Publishes one event to a user's browsers, wherever their sockets are connected. */
export async function publishLiveEvent(
  redis: LiveEventPublisher,
  keyPrefix: string,
  userId: string,
  event: LiveEvent,
): Promise<void> {
  await redis.publish(userEventsChannel(keyPrefix, userId), JSON.stringify(liveEventSchema.parse(event)));
}

/**
 * What a browser tells its socket, at any time: the optional event types it wants. `frame` is on
 * for a socket until it says otherwise (clients that never say get every event); the SPA asks
 * for frames only while a live view is on screen, so a page is streamed only while watched.
 */
export const liveClientMessageSchema = z.object({ watch: z.array(z.enum(['frame'])).max(1) });
export type LiveClientMessage = z.infer<typeof liveClientMessageSchema>;

/**
 * The sockets that watch one user's frames, across every API process: a sorted set of socket ids
 * scored by the time (ms) their lease ends. Each API renews the lease of its own sockets on every
 * heartbeat, so the sockets of an API that died drop out by themselves.
 */
export function liveWatchersKey(keyPrefix: string, userId: string): string {
  return `${keyPrefix}live-watchers:${userId}`;
}

/** Carries a user id whenever that user's frame watchers change (workers start or stop streaming). */
export function livePresenceChannel(keyPrefix: string): string {
  return `${keyPrefix}live-presence`;
}

/** What counting watchers needs of a Redis client (ioredis fits). */
export interface LiveWatcherCounter {
  zcount(key: string, min: number | string, max: number | string): Promise<number>;
}

/** How many sockets watch the user's frames now (leases still running). */
export function countLiveWatchers(
  redis: LiveWatcherCounter,
  keyPrefix: string,
  userId: string,
  now = Date.now(),
): Promise<number> {
  return redis.zcount(liveWatchersKey(keyPrefix, userId), `(${now}`, '+inf');
}
