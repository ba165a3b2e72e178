import type { Redis } from 'ioredis';
import { liveEventSchema, userEventsChannel, type LiveEvent } from '@pagewright/shared';

/** Publishes one live event on its owner's channel; every API instance forwards it to their sockets. */
export async function publishLiveEvent(
  redis: Redis,
  keyPrefix: string,
  userId: string,
  event: LiveEvent,
): Promise<void> {
  await redis.publish(userEventsChannel(keyPrefix, userId), JSON.stringify(liveEventSchema.parse(event)));
}
