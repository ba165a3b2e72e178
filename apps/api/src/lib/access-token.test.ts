import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAccessTokens } from './access-token.js';

const TTL_SECONDS = 900;
const tokens = createAccessTokens({ JWT_SECRET: 'x'.repeat(32), ACCESS_TOKEN_TTL_SECONDS: TTL_SECONDS });
const claims = () => ({ sub: randomUUID(), username: 'ada@example.com', fid: randomUUID() });

afterEach(() => {
  vi.useRealTimers();
});

describe('access tokens, verified once per process', () => {
  it('answers the same claims for the same token, checked or remembered', () => {
    const issued = claims();
    const token = tokens.issue(issued);
    expect(tokens.verify(token)).toEqual(issued);
    expect(tokens.verify(token)).toEqual(issued);
  });

  it('refuses a remembered token once it expires, except for logout', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const issued = claims();
    const token = tokens.issue(issued);
    expect(tokens.verify(token)).toEqual(issued);
    vi.setSystemTime(Date.now() + TTL_SECONDS * 1000);
    expect(tokens.verify(token)).toBeNull();
    expect(tokens.verify(token, { allowExpired: true })).toEqual(issued);
    expect(tokens.verify(token)).toBeNull();
  });

  it('refuses a token whose signature differs from a remembered one', () => {
    const token = tokens.issue(claims());
    expect(tokens.verify(token)).not.toBeNull();
    const [header, payload, signature = ''] = token.split('.');
    const flipped = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    expect(tokens.verify(`${header}.${payload}.${flipped}`)).toBeNull();
    const other = createAccessTokens({ JWT_SECRET: 'y'.repeat(32), ACCESS_TOKEN_TTL_SECONDS: TTL_SECONDS });
    expect(other.verify(token)).toBeNull();
  });
});
