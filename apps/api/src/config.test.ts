import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { engineKeyAlgorithm, loadConfig } from './config.js';

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

describe('F-engine token settings', () => {
  const issuerAndAudience = {
    FENGINE_JWT_ISSUER: 'https://engine.example',
    FENGINE_JWT_AUDIENCE: 'pagewright',
  };

  it('leaves remote-engine sign-in off when no key is set, empty values included', () => {
    const config = loadConfig({ ...required, FENGINE_JWT_SECRET: '', FENGINE_JWKS_URL: ' ' });
    expect(config.FENGINE_JWT_SECRET).toBeUndefined();
    expect(config.FENGINE_JWKS_URL).toBeUndefined();
  });

  it('needs the issuer and the audience with a key', () => {
    expect(() => loadConfig({ ...required, FENGINE_JWT_SECRET: 's'.repeat(32) })).toThrow(
      /FENGINE_JWT_ISSUER is required.*FENGINE_JWT_AUDIENCE is required/,
    );
  });

  it('takes one key setting only', () => {
    expect(() =>
      loadConfig({
        ...required,
        ...issuerAndAudience,
        FENGINE_JWT_SECRET: 's'.repeat(32),
        FENGINE_JWKS_URL: 'https://engine.example/jwks.json',
      }),
    ).toThrow(/set one of/);
  });

  it('refuses a short secret and a key that is not an RSA or P-256 public key', () => {
    expect(() => loadConfig({ ...required, ...issuerAndAudience, FENGINE_JWT_SECRET: 'short' })).toThrow(
      /at least 32/,
    );
    expect(() =>
      loadConfig({ ...required, ...issuerAndAudience, FENGINE_JWT_PUBLIC_KEY: 'not a key' }),
    ).toThrow(/FENGINE_JWT_PUBLIC_KEY must be a PEM public key/);
  });

  it('reads a one-line PEM with \\n escapes', () => {
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const config = loadConfig({
      ...required,
      ...issuerAndAudience,
      FENGINE_JWT_PUBLIC_KEY: pem.trim().replace(/\n/g, '\\n'),
    });
    expect(config.FENGINE_JWT_PUBLIC_KEY).toBe(pem.trim());
    expect(engineKeyAlgorithm(pem)).toBe('ES256');
  });
});
