import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { DATASET_TYPES, MESSAGES, VALUE_TYPES, labelColumnKeySchema } from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import { createDraftStore } from '../../lib/draft-store.js';

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
 * PostgreSQL before save, so cancel leaves nothing behind and two users never share a draft. Every
 * change is a compare-and-set (lib/draft-store.ts): two tabs or a double click lose no edit.
 */
export function createDatasetDraftStore(redis: Redis, keyPrefix: string, log: FastifyBaseLogger) {
  const keyOf = (userId: string) => `${keyPrefix}dataset-draft:${userId}`;
  const store = createDraftStore(redis, {
    schema: draftSchema,
    ttlMs: DRAFT_TTL_SECONDS * 1000,
    missing: noDraft,
    unreadable: (key, issues) => {
      // A draft of an older shape (a deploy changed it) is refused loudly, not taken for none.
      log.warn({ key, issues: issues.slice(0, 3) }, 'dataset draft no longer reads');
      return noDraft();
    },
  });
  const isOf = (datasetId: string | undefined) => (draft: DatasetDraft) =>
    datasetId === undefined || draft.id === datasetId;

  return {
    async put(userId: string, draft: DatasetDraft): Promise<void> {
      await store.put(keyOf(userId), draft);
    },

    /** The caller's draft, renewed; `datasetId` (when given) must be the draft's dataset. */
    async get(userId: string, datasetId?: string): Promise<DatasetDraft> {
      const found = await store.get(keyOf(userId));
      if (!found || !isOf(datasetId)(found.value)) throw noDraft();
      return found.value;
    },

    /**
     * Changes the caller's draft (of `datasetId` when given) with `change`, which may check and
     * throw; returns the draft as written. Another write in between makes `change` run again.
     */
    async update(
      userId: string,
      change: (draft: DatasetDraft) => DatasetDraft | Promise<DatasetDraft>,
      datasetId?: string,
    ): Promise<DatasetDraft> {
      return store.update(keyOf(userId), (draft) => {
        if (!isOf(datasetId)(draft)) throw noDraft();
        return change(draft);
      });
    },

    /** The caller's draft when there is one (the rows step 2 offers do not need one). */
    async find(userId: string): Promise<DatasetDraft | null> {
      return (await store.get(keyOf(userId)))?.value ?? null;
    },

    async drop(userId: string): Promise<void> {
      await store.drop(keyOf(userId));
    },

    /** Drops the caller's draft only if it is of this dataset (a deleted dataset's wizard ends). */
    async dropIfOf(userId: string, datasetId: string): Promise<void> {
      await store.dropIf(keyOf(userId), (draft) => draft.id === datasetId);
    },
  };
}
export type DatasetDraftStore = ReturnType<typeof createDatasetDraftStore>;
