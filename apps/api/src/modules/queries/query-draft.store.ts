import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { MESSAGES, ORDER_TYPES, QUERY_TYPES } from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import { createDraftStore } from '../../lib/draft-store.js';

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
export type QueryDraftFilter = QueryDraft['filters'][number];

export const noDraft = () => new AppError('CONFLICT', MESSAGES['query.no.draft']);

/**
 * The caller's one query wizard in progress (`<prefix>query-draft:<userId>`): nothing reaches
 * PostgreSQL before save, so cancel leaves nothing behind and two users never share a draft. Every
 * change is a compare-and-set (lib/draft-store.ts): two tabs or a double click lose no edit.
 */
export function createQueryDraftStore(redis: Redis, keyPrefix: string, log: FastifyBaseLogger) {
  const keyOf = (userId: string) => `${keyPrefix}query-draft:${userId}`;
  const store = createDraftStore(redis, {
    schema: draftSchema,
    ttlMs: DRAFT_TTL_SECONDS * 1000,
    missing: noDraft,
    unreadable: (key, issues) => {
      // A draft of an older shape (a deploy changed it) is refused loudly, not taken for none.
      log.warn({ key, issues: issues.slice(0, 3) }, 'query draft no longer reads');
      return noDraft();
    },
  });

  return {
    async put(userId: string, draft: QueryDraft): Promise<void> {
      await store.put(keyOf(userId), draft);
    },

    /** The caller's draft, renewed, or null when there is none. */
    async find(userId: string): Promise<QueryDraft | null> {
      return (await store.get(keyOf(userId)))?.value ?? null;
    },

    /** The caller's draft, renewed. */
    async get(userId: string): Promise<QueryDraft> {
      const draft = await this.find(userId);
      if (!draft) throw noDraft();
      return draft;
    },

    /**
     * Changes the caller's draft with `change`, which may check and throw; returns the draft as
     * written. Another write in between makes `change` run again on the draft that write left.
     */
    async update(
      userId: string,
      change: (draft: QueryDraft) => QueryDraft | Promise<QueryDraft>,
    ): Promise<QueryDraft> {
      return store.update(keyOf(userId), change);
    },

    async drop(userId: string): Promise<void> {
      await store.drop(keyOf(userId));
    },

    /** Drops the caller's draft only if it is of this query (a deleted query's wizard ends). */
    async dropIfOf(userId: string, queryId: string): Promise<void> {
      await store.dropIf(keyOf(userId), (draft) => draft.id === queryId);
    },
  };
}
export type QueryDraftStore = ReturnType<typeof createQueryDraftStore>;
