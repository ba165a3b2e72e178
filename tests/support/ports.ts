import net from 'node:net';
import { waitUntil } from './wait.js';

/** A TCP port that is free right now on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Polls `probe` (every 150 ms, at most `timeoutMs`) until it answers a value other than undefined,
 * false included: waitUntil of wait.ts, for probes that answer undefined while not ready.
 */
export async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const found = await waitUntil(
    async () => {
      const value = await probe();
      return value === undefined ? undefined : { value };
    },
    { timeoutMs, message: what },
  );
  return found.value;
}
