import * as z from './zod.js';
import { NAME_MAX_LENGTH } from '../constants.js';
import { MESSAGES } from '../messages.js';
import { hasNoControlCharacter, isOneLine } from '../validation.js';

/**
 * API keys (issue 26): bearer credentials for the public API under /api/v1, managed from Settings
 * with the normal session. READ reads the owner's items; RUN also starts runs.
 */
export const API_KEY_SCOPES = ['READ', 'RUN'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Every key starts with it, so that a leaked key is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = 'pw_';
/** The characters of a key shown in lists: `pw_` and the first 9 of its secret. */
export const API_KEY_SHOWN_LENGTH = 12;
/** Keys one account may hold that are neither revoked nor expired. */
export const API_KEYS_MAX_PER_USER = 50;
export const API_KEY_EXPIRY_MAX_DAYS = 3650;

/** POST /user/api-keys: a name, a scope and at most one way of saying when it expires. */
export const createApiKeyRequestSchema = z
  .object({
    // One line of plain text, as every name a user gives (issue 38).
    name: z
      .string()
      .trim()
      .min(1, MESSAGES['apikey.name.required'])
      .max(NAME_MAX_LENGTH)
      .refine(isOneLine, MESSAGES['error.name.line.break'])
      .refine(hasNoControlCharacter, MESSAGES['error.name.control']),
    scope: z.enum(API_KEY_SCOPES),
    expiresInDays: z.number().int().min(1).max(API_KEY_EXPIRY_MAX_DAYS).optional(),
    expiresAt: z.string().datetime({ offset: true }).optional(),
  })
  .refine((body) => body.expiresInDays === undefined || body.expiresAt === undefined, {
    message: MESSAGES['apikey.expiry.both'],
    path: ['expiresAt'],
  });
export type CreateApiKeyRequest = z.infer<typeof createApiKeyRequestSchema>;

/** A key as lists show it: never the key, only its first characters. */
export const apiKeySchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  prefix: z.string(),
  scope: z.enum(API_KEY_SCOPES),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  revoked: z.boolean(),
  /** Past its expiry (and not revoked). */
  expired: z.boolean(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** POST /user/api-keys (201): the key itself, this once. */
export const createdApiKeySchema = apiKeySchema.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
