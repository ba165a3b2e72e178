import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { DATASET_TYPES, MESSAGES, VALUE_TYPES, labelColumnKeySchema } from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';

/** A wizard left open this long is forgotten (renewed by every call), as the builder's draft is. */
const DRAFT_TTL_SECONDS = 24 * 60 * 60;

const draftSchema = z.object({
  /** The dataset's id: new for a dataset being created, the saved one's when editing. */
  id: z.string().uuid(),
  isNew: z.boolean(),
  type: z.enum(DATASET_TYPES),
  name: z.string(),
  description: z.string(),
  fields: z.array(
    z.object({
      datasetFieldId: z.string().uuid().nullable(),
      name: z.string(),
      type: z.enum(VALUE_TYPES),
      dataSetKey: z.boolean(),
    }),
  ),
  /** Step 1 was sent (a new dataset has no fields before it). */
  hasFields: z.boolean(),
  /** The rows chosen in step 2. */
  selected: z.array(labelColumnKeySchema),
});
export type DatasetDraft = z.infer<typeof draftSchema>;

const noDraft = () => new AppError('CONFLICT', MESSAGES['dataset.no.draft']);

/**
 * The caller's one dataset wizard in progress (`<prefix>dataset-draft:<userId>`): nothing reaches
 * PostgreSQL before save, so cancel leaves nothing behind and two users never share a draft.
 */
export function createDatasetDraftStore(redis: Redis, keyPrefix: string, log: FastifyBaseLogger) {
  const keyOf = (userId: string) => `${keyPrefix}dataset-draft:${userId}`;

  return {
    async put(userId: string, draft: DatasetDraft): Promise<void> {
      await redis.set(keyOf(userId), JSON.stringify(draft), 'EX', DRAFT_TTL_SECONDS);
    },

    /** The caller's draft, renewed; `datasetId` (when given) must be the draft's dataset. */
    async get(userId: string, datasetId?: string): Promise<DatasetDraft> {
      const raw = await redis.getex(keyOf(userId), 'EX', DRAFT_TTL_SECONDS);
      if (!raw) throw noDraft();
      const parsed = draftSchema.safeParse(JSON.parse(raw));
      if (!parsed.success) {
        // A draft of an older shape (a deploy changed it) is refused loudly, not taken for none.
        log.warn({ userId, issues: parsed.error.issues.slice(0, 3) }, 'dataset draft no longer reads');
        throw noDraft();
      }
      if (datasetId && parsed.data.id !== datasetId) throw noDraft();
      return parsed.data;
    },

    /** The caller's draft when there is one (the rows step 2 offers do not need one). */
    async find(userId: string): Promise<DatasetDraft | null> {
      return (await redis.exists(keyOf(userId))) ? this.get(userId) : null;
    },

    async drop(userId: string): Promise<void> {
      await redis.del(keyOf(userId));
    },

    /** Drops the caller's draft only if it is of this dataset (a deleted dataset's wizard ends). */
    async dropIfOf(userId: string, datasetId: string): Promise<void> {
      const raw = await redis.get(keyOf(userId));
      if (raw?.includes(`"id":"${datasetId}"`)) await redis.del(keyOf(userId));
    },
  };
}
export type DatasetDraftStore = ReturnType<typeof createDatasetDraftStore>;
