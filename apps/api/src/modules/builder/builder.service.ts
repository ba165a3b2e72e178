import {
  declaredInputsOf,
  type BuilderRecord,
  type BuilderView,
  type DraftAction,
  type ExtractorType,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import { createBuilderCore, draftOf, isNavigator, type BuilderServiceDeps } from './builder.core.js';
import { createDraftEditing } from './builder.draft.js';
import { createLivePageCommands } from './builder.page.js';
import { createValidateAndSave } from './builder.validation.js';

export type { BuilderServiceDeps } from './builder.core.js';

/**
 * The action builder (automation spec §2, §4, §5, §7): the caller's current draft of one
 * extractor, edited action by action against a live page on a worker, validated there, and saved
 * in one transaction. Every call is scoped to the caller's own builder. Its three parts live
 * beside it: editing the draft (builder.draft.ts), commands to the live page (builder.page.ts),
 * validate and save (builder.validation.ts).
 */
export function createBuilderService(deps: BuilderServiceDeps) {
  const { repo, store } = deps;
  const core = createBuilderCore(deps);
  const { stored, current, view, closeLive, assertEditable } = core;

  return {
    /**
     * Makes an extractor the caller's current builder of its type (after Create, and by Edit):
     * the draft is the saved flow; any previous builder of that type closes.
     */
    async open(userId: string, extractorId: string): Promise<BuilderView> {
      const extractor = await repo.findOwnedExtractor(userId, extractorId);
      if (!extractor) throw AppError.notFound();
      const type = extractor.extractorType;
      return store.withLock(userId, type, async () => {
        const previous = await stored(userId, type, 'forget');
        if (previous) {
          await closeLive(userId, previous);
          if (previous.shareRunId) await repo.finishShareRun(previous.shareRunId, previous.extractorId);
        }
        let actions: DraftAction[];
        try {
          actions = extractor.actions.map((row) => draftOf(row, userId));
        } catch (error) {
          throw AppError.validation(error instanceof Error ? error.message : String(error));
        }
        const record: BuilderRecord = {
          extractorId,
          extractorType: type,
          actions,
          live: null,
          shareRunId: null,
          shareUrl: null,
          openedAt: new Date().toISOString(),
          state: 'NONE',
          engine: { managementDTO: null, fserviceDTO: null },
          inputs: declaredInputsOf(extractor.inputs),
        };
        if (isNavigator(type)) {
          const run = await repo.createShareRun(userId, extractorId);
          record.shareRunId = run.id;
          if (deps.shareNavigator)
            record.shareUrl = (await deps.shareNavigator(userId, extractorId, run.id)).url;
        }
        await store.create(userId, record);
        return view(userId, record);
      });
    },

    /** Refuses with 403 when readOnlyEdit keeps the caller's current builder from changing. */
    async assertEditable(userId: string, type: ExtractorType): Promise<void> {
      await assertEditable(userId, await current(userId, type));
    },

    async current(userId: string, type: ExtractorType): Promise<BuilderView> {
      return view(userId, await current(userId, type));
    },

    /** GET /extractor/end: closes the builder and its browser; a navigator's screen share ends. */
    async end(userId: string, type: ExtractorType): Promise<void> {
      await store.withLock(userId, type, async () => {
        const record = await stored(userId, type, 'forget');
        if (!record) return;
        await closeLive(userId, record);
        if (record.shareRunId) await repo.finishShareRun(record.shareRunId, record.extractorId);
        for (const action of record.actions) {
          await store.dropImage(userId, action.id, 'page');
          await store.dropImage(userId, action.id, 'element');
        }
        await store.remove(userId, type);
      });
    },

    ...createDraftEditing(deps, core),
    ...createLivePageCommands(core),
    ...createValidateAndSave(deps, core),
  };
}
export type BuilderService = ReturnType<typeof createBuilderService>;
