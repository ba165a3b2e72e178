import { Redis } from 'ioredis';
import { userEventsChannel } from '@pagewright/shared';

/** Counts the `frame` events workers publish for a user, whoever (if anyone) receives them. */
export async function countPublishedFrames(redisUrl: string, keyPrefix: string, userId: string) {
  const listener = new Redis(redisUrl);
  let frames = 0;
  listener.on('message', (_channel: string, message: string) => {
    if (message.startsWith('{"type":"frame"')) frames += 1;
  });
  await listener.subscribe(userEventsChannel(keyPrefix, userId));
  return { count: () => frames, stop: () => listener.disconnect() };
}
