import { describe, expect, it } from 'vitest';
import { isPasswordValid } from '@pagewright/shared';
import { generateTemporaryPassword, hashPassword, passwordState, verifyPassword } from './password-policy.js';

const DAY = 24 * 60 * 60 * 1000;

describe('password policy', () => {
  it('hashes with argon2id and verifies', async () => {
    const hash = await hashPassword('abcd1234!');
    expect(hash.startsWith('$argon2id$v=19$m=19456,t=2,p=1$')).toBe(true);
    expect(await verifyPassword(hash, 'abcd1234!')).toBe(true);
    expect(await verifyPassword(hash, 'abcd1234?')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'x')).toBe(false);
  });

  it('temporary passwords always satisfy the product rule and differ', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const p = generateTemporaryPassword();
      expect(isPasswordValid(p)).toBe(true);
      seen.add(p);
    }
    expect(seen.size).toBe(200);
  });

  it('counts days to expiry and forces a change at 0 or with a temporary password', () => {
    const now = new Date('2026-06-01T12:00:00Z');
    const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY);
    expect(passwordState({ tempPasswordSet: false, passwordChangedAt: at(0) }, 90, now)).toEqual({
      daysToExpire: 90,
      mustChangePassword: false,
    });
    expect(passwordState({ tempPasswordSet: false, passwordChangedAt: at(76) }, 90, now).daysToExpire).toBe(
      14,
    );
    expect(passwordState({ tempPasswordSet: false, passwordChangedAt: at(90) }, 90, now)).toEqual({
      daysToExpire: 0,
      mustChangePassword: true,
    });
    expect(
      passwordState({ tempPasswordSet: true, passwordChangedAt: at(1) }, 90, now).mustChangePassword,
    ).toBe(true);
  });
});
