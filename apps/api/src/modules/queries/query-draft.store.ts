import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { MESSAGES, ORDER_TYPES, QUERY_TYPES } from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';

/** A wizard left open this long is forgotten (renewed by every call), as the builder's draft is. */
const DRAFT_TTL_SECONDS = 24 * 60 * 60;

const draftSchema = z.object({
  /** The query's id: new for a query being created, the saved one's when editing. */
  id: z.string().uuid(),
  isNew: z.boolean(),
  type: z.enum(QUERY_TYPES),
  name: z.string(),
  description: z.string(),
  timeZone: z.string(),
  /** Step 1's choice. */
  datasetId: z.string().uuid().nullable(),
  /** Step 2's columns in order; ids are made here and kept by save. */
  fields: z.array(
    z.object({
      queryFieldId: z.string().uuid(),
      datasetFieldId: z.string().uuid(),
      orderType: z.enum(ORDER_TYPES).nullable(),
      orderSequence: z.number().int().nullable(),
    }),
  ),
  /** Step 3's filters, AND-ed. */
  filters: z.array(
    z.object({
      queryFilterId: z.string().uuid(),
      datasetFieldId: z.string().uuid(),
      operatorId: z.number().int(),
      inputValue: z.string().nullable(),
    }),
  ),
});
export type QueryDraft = z.infer<typeof draftSchema>;
export type QueryDraftField = QueryDraft['fields'][number];
export type QueryDraftFilter = QueryDraft['filters'][number];

export const noDraft = () => new AppError('CONFLICT', MESSAGES['query.no.draft']);

/**
 * The caller's one query wizard in progress (`<prefix>query-draft:<userId>`): nothing reaches
 * PostgreSQL before save, so cancel leaves nothing behind and two users never share a draft.
 */
export function createQueryDraftStore(redis: Redis, keyPrefix: string, log: FastifyBaseLogger) {
  const keyOf = (userId: string) => `${keyPrefix}query-draft:${userId}`;

  return {
    async put(userId: string, draft: QueryDraft): Promise<void> {
      await redis.set(keyOf(userId), JSON.stringify(draft), 'EX', DRAFT_TTL_SECONDS);
    },

    /** The caller's draft, renewed, or null when there is none. */
    async find(userId: string): Promise<QueryDraft | null> {
      const raw = await redis.getex(keyOf(userId), 'EX', DRAFT_TTL_SECONDS);
      if (!raw) return null;
      const parsed = draftSchema.safeParse(JSON.parse(raw));
      if (!parsed.success) {
        // A draft of an older shape (a deploy changed it) is refused loudly, not taken for none.
        log.warn({ userId, issues: parsed.error.issues.slice(0, 3) }, 'query draft no longer reads');
        throw noDraft();
      }
      return parsed.data;
    },

    /** The caller's draft, renewed. */
    async get(userId: string): Promise<QueryDraft> {
      const draft = await this.find(userId);
      if (!draft) throw noDraft();
      return draft;
    },

    async drop(userId: string): Promise<void> {
      await redis.del(keyOf(userId));
    },

    /** Drops the caller's draft only if it is of this query (a deleted query's wizard ends). */
    async dropIfOf(userId: string, queryId: string): Promise<void> {
      const raw = await redis.get(keyOf(userId));
      if (raw?.includes(`"id":"${queryId}"`)) await redis.del(keyOf(userId));
    },
  };
}
export type QueryDraftStore = ReturnType<typeof createQueryDraftStore>;
