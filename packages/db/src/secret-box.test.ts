import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from './secret-box.js';

const key = () => randomBytes(32).toString('hex');

describe('secret box (AES-256-GCM)', () => {
  it('opens what it sealed, and the stored bytes do not contain the secret', () => {
    const box = createSecretBox(key());
    const sealed = box.seal('one-time-code 482913', 'user:1/action:2');
    expect(sealed.ciphertext.toString('utf8')).not.toContain('482913');
    expect(sealed.iv).toHaveLength(12);
    expect(sealed.authTag).toHaveLength(16);
    expect(box.open(sealed, 'user:1/action:2')).toBe('one-time-code 482913');
  });

  it('uses a fresh IV each time', () => {
    const box = createSecretBox(key());
    const a = box.seal('same', 'ctx');
    const b = box.seal('same', 'ctx');
    expect(a.iv.equals(b.iv)).toBe(false);
    expect(a.ciphertext.equals(b.ciphertext)).toBe(false);
  });

  it('refuses a tampered value, another key, or another row', () => {
    const box = createSecretBox(key());
    const sealed = box.seal('secret', 'user:1/action:2');
    const tampered = { ...sealed, ciphertext: Buffer.from(sealed.ciphertext) };
    tampered.ciphertext[0] = (tampered.ciphertext[0] ?? 0) ^ 1;
    expect(() => box.open(tampered, 'user:1/action:2')).toThrow();
    expect(() => createSecretBox(key()).open(sealed, 'user:1/action:2')).toThrow();
    expect(() => box.open(sealed, 'user:2/action:2')).toThrow();
  });

  it('insists on a 32-byte key', () => {
    expect(() => createSecretBox('abcd')).toThrow(/32 bytes/);
  });
});
