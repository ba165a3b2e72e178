import type { Redis } from 'ioredis';

/**
 * The per-address ceiling on failed sign-ins across accounts (ASVS 2.2.1): POST /auth's rate limit
 * counts per address and account, which lets one address try a password on every account
 * (password spraying). This counts an address's failed sign-ins whatever the account, in Redis so
 * that every API process counts the same; past `max` within the window every sign-in from the
 * address is refused, a right password too (else the answer would say which guess was right).
 */
export function createLoginFailureCeiling(deps: {
  redis: Redis;
  keyPrefix: string;
  /** LOGIN_ADDRESS_FAILURE_MAX. */
  max: number;
  /** LOGIN_ADDRESS_FAILURE_WINDOW_SECONDS in ms: the window starts at the address's first failure. */
  windowMs: number;
}) {
  const { redis, keyPrefix, max, windowMs } = deps;
  const keyOf = (address: string) => `${keyPrefix}login-failures:${address}`;
  return {
    async isOverCeiling(address: string): Promise<boolean> {
      return Number((await redis.get(keyOf(address))) ?? 0) >= max;
    },
    async recordFailure(address: string): Promise<void> {
      const key = keyOf(address);
      await redis.multi().set(key, 0, 'PX', windowMs, 'NX').incr(key).exec();
    },
  };
}

export type LoginFailureCeiling = ReturnType<typeof createLoginFailureCeiling>;
