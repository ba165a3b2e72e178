import { randomInt } from 'node:crypto';
import argon2 from 'argon2';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * argon2id at OWASP's recommended setting (19 MiB, 2 passes, 1 lane). The library default (64 MiB,
 * 3 passes, 4 lanes) held a 2-core host to ~7 sign-ins/s with both cores busy, an easy denial of
 * service. Each hash records its own parameters, so older hashes keep verifying.
 */
export const ARGON2_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** Days left before the password expires (0 when expired) and whether a change is forced now. */
export function passwordState(
  user: { tempPasswordSet: boolean; passwordChangedAt: Date },
  expiryDays: number,
  now = new Date(),
): { daysToExpire: number; mustChangePassword: boolean } {
  const expiresAt = user.passwordChangedAt.getTime() + expiryDays * DAY_MS;
  const daysToExpire = Math.max(0, Math.ceil((expiresAt - now.getTime()) / DAY_MS));
  return { daysToExpire, mustChangePassword: user.tempPasswordSet || daysToExpire === 0 };
}

/**
 * A temporary password that satisfies the product's own password rule (≥9 chars, 4 letters,
 * 4 digits, one special, no white space or '+'), so the user can type it anywhere a password goes.
 */
export function generateTemporaryPassword(): string {
  const letters = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ';
  const digits = '23456789';
  const specials = '!#$%&*?@';
  const pick = (set: string, n: number) => Array.from({ length: n }, () => set[randomInt(set.length)]);
  const chars = [...pick(letters, 6), ...pick(digits, 4), ...pick(specials, 2)];
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}
