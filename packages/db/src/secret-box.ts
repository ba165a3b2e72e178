import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** What is stored for one secret: AES-256-GCM ciphertext, its 96-bit IV and 128-bit auth tag. */
export interface SealedSecret {
  ciphertext: Buffer;
  iv: Buffer;
  authTag: Buffer;
}

/**
 * Encrypts secrets kept for later runs (answers saved with "save for next time") so that a copy
 * of the database alone reveals nothing. The key comes from ENCRYPTION_KEY (32 bytes, hex).
 * `context` (e.g. the owning user and action ids) is bound as associated data: a sealed value
 * copied onto another row fails to open.
 */
export function createSecretBox(hexKey: string) {
  const key = Buffer.from(hexKey, 'hex');
  if (key.length !== 32) throw new Error('ENCRYPTION_KEY must be 32 bytes (64 hex characters)');
  return {
    seal(plaintext: string, context: string): SealedSecret {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return { ciphertext, iv, authTag: cipher.getAuthTag() };
    },
    /** Throws when the value was tampered with, sealed under another key, or for another context. */
    open(sealed: SealedSecret, context: string): string {
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.iv);
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(sealed.authTag);
      return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
    },
  };
}
export type SecretBox = ReturnType<typeof createSecretBox>;

/**
 * The associated data a saved answer ("save for next time") is sealed with: the API seals it,
 * the worker opens it, and a value copied onto another user's or action's row fails to open.
 */
export function actionSecretContext(userId: string, actionId: string): string {
  return `user:${userId}/action:${actionId}`;
}

/**
 * The associated data a webhook endpoint's signing secret is sealed with (issue 26): the API seals
 * it at creation, the worker opens it to sign each delivery; copied onto another endpoint it fails.
 */
export function webhookSecretContext(userId: string, endpointId: string): string {
  return `user:${userId}/webhook:${endpointId}`;
}
