import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

const required = { JWT_SECRET: 'x'.repeat(32), ENCRYPTION_KEY: 'ab'.repeat(32) };

describe('TRUST_PROXY', () => {
  it('trusts nobody by default', () => {
    expect(loadConfig(required).TRUST_PROXY).toEqual([]);
    expect(loadConfig({ ...required, TRUST_PROXY: ' ' }).TRUST_PROXY).toEqual([]);
  });

  it('reads addresses, CIDRs and proxy-addr range names', () => {
    expect(
      loadConfig({ ...required, TRUST_PROXY: '172.30.80.0/24, 10.0.0.7,::1,fd00::/8,loopback' }).TRUST_PROXY,
    ).toEqual(['172.30.80.0/24', '10.0.0.7', '::1', 'fd00::/8', 'loopback']);
  });

  it.each(['nginx', '10.0.0.0/33', '10.0.0.0/8/1', '10.0.0.0/x', 'true', '*'])(
    'refuses %s at start-up',
    (value) => {
      expect(() => loadConfig({ ...required, TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
    },
  );
});
