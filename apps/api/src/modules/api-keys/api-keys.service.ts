import { hashToken, newOpaqueToken } from '@pagewright/db';
import {
  API_KEY_PREFIX,
  API_KEY_SHOWN_LENGTH,
  API_KEYS_MAX_PER_USER,
  MESSAGES,
  formatMessage,
  type ApiKey,
  type CreateApiKeyRequest,
  type CreatedApiKey,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import type { ApiKeyRepository } from './api-keys.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

type ListedKey = Awaited<ReturnType<ApiKeyRepository['listOwned']>>[number];

function apiKeyDto(key: ListedKey, now: Date): ApiKey {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scope: key.scope,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    expiresAt: key.expiresAt?.toISOString() ?? null,
    revoked: key.revokedAt !== null,
    expired: key.revokedAt === null && key.expiresAt !== null && key.expiresAt <= now,
  };
}

/** A new key: `pw_` and 32 random bytes in base64url (256 bits; only its SHA-256 is kept). */
export function newApiKey(): string {
  return `${API_KEY_PREFIX}${newOpaqueToken()}`;
}

/** The caller's API keys from Settings (the session's user); the key itself is answered once. */
export function createApiKeyService(keys: ApiKeyRepository) {
  return {
    async create(userId: string, request: CreateApiKeyRequest): Promise<CreatedApiKey> {
      const now = new Date();
      let expiresAt: Date | null = null;
      if (request.expiresInDays !== undefined)
        expiresAt = new Date(now.getTime() + request.expiresInDays * DAY_MS);
      if (request.expiresAt !== undefined) {
        expiresAt = new Date(request.expiresAt);
        if (expiresAt <= now) throw AppError.validation(MESSAGES['apikey.expiry.past'], 'expiresAt');
      }
      if ((await keys.countUsable(userId, now)) >= API_KEYS_MAX_PER_USER)
        throw new AppError('CONFLICT', formatMessage('apikey.too.many', { max: API_KEYS_MAX_PER_USER }));
      const key = newApiKey();
      const created = await keys.create({
        userId,
        name: request.name,
        prefix: key.slice(0, API_KEY_SHOWN_LENGTH),
        keyHash: hashToken(key),
        scope: request.scope,
        expiresAt,
      });
      return { ...apiKeyDto(created, now), key };
    },

    async list(userId: string): Promise<ApiKey[]> {
      const now = new Date();
      return (await keys.listOwned(userId)).map((key) => apiKeyDto(key, now));
    },

    async revoke(userId: string, id: string): Promise<string> {
      if (!(await keys.revokeOwned(userId, id, new Date())))
        throw AppError.notFound(MESSAGES['apikey.not.found']);
      return MESSAGES['apikey.revoked.done'];
    },
  };
}
export type ApiKeyService = ReturnType<typeof createApiKeyService>;
