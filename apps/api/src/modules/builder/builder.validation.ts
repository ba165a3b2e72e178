import { actionSecretContext, toActionRowParts } from '@pagewright/db';
import {
  automationErrorText,
  MESSAGES,
  type BuilderView,
  type ExtractorType,
  type SealedSecretJson,
  type SessionFailure,
  type ValidateResult,
  type ValidationResult,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import { isForeignKeyViolation, isRowNotFound, isUniqueViolation } from '../../lib/db-errors.js';
import type { ActionToSave } from './builder.repository.js';
import { referencedInputs, stepWithDefaults } from './builder.inputs.js';
import {
  automationText,
  bySequence,
  draftOf,
  isNavigator,
  mustValidateMessage,
  type BuilderCore,
  type BuilderServiceDeps,
} from './builder.core.js';

/** A validation may wait on asks (ASK_TIMEOUT_SECONDS each): bounded, and its worker is watched. */
const VALIDATE_TIMEOUT_MS = 60 * 60_000;

function fromJson(sealed: SealedSecretJson) {
  return {
    ciphertext: Buffer.from(sealed.ciphertext, 'base64'),
    iv: Buffer.from(sealed.iv, 'base64'),
    authTag: Buffer.from(sealed.authTag, 'base64'),
  };
}

/**
 * Validating the draft on the live page's worker and saving it (automation spec §4 "Validate",
 * "Save"): both hold the builder's lock for as long as they run.
 */
export function createValidateAndSave(deps: BuilderServiceDeps, core: BuilderCore) {
  const { repo, store } = deps;
  const { current, view, command, assertEditable, markImages } = core;

  return {
    /**
     * GET /extractor/validate: runs the whole draft from a fresh browser context on the builder's
     * worker, reporting `progress|type` as it goes, then marks each action (spec §4 "Validate").
     * It keeps the builder's lock while it runs, and stops on the worker when `cancel` aborts (its
     * request went away) or the lock is lost.
     */
    async validate(
      userId: string,
      type: ExtractorType,
      onProgress: (progress: number, actionType: string) => void,
      cancel?: AbortSignal,
    ): Promise<ValidationResult> {
      return store.withLock(
        userId,
        type,
        async (lock) => {
          const record = await current(userId, type);
          await assertEditable(userId, record);
          const ordered = record.actions.sort(bySequence);
          if (ordered.length === 0) throw AppError.validation(MESSAGES['extractor.validate.empty']);
          // An earlier success no longer stands while this run decides (a run that throws leaves NONE).
          if (record.state !== 'NONE') {
            record.state = 'NONE';
            await store.put(userId, record);
          }
          const run = await repo.createValidationRun(userId, record.extractorId);
          const stop = cancel ? AbortSignal.any([lock.signal, cancel]) : lock.signal;
          let answer: ValidateResult | SessionFailure;
          try {
            answer = await command(
              userId,
              record,
              (sessionId) => ({
                command: 'validate',
                sessionId,
                userId,
                runId: run.id,
                extractorId: record.extractorId,
                steps: ordered.map((action) => ({
                  step: stepWithDefaults(record, action.step),
                  actionId: action.isSaved ? action.id : null,
                  draftActionId: action.id,
                  sealedSecret: action.sealedSecret,
                  secretContext: action.sealedSecret ? actionSecretContext(userId, action.id) : null,
                })),
              }),
              VALIDATE_TIMEOUT_MS,
              (progress) => onProgress(progress.progress, progress.actionType),
              stop,
            );
            // A lock lost after the answer came: another request may have changed the draft.
            lock.signal.throwIfAborted();
          } catch (error) {
            const isCancelled = cancel?.aborted === true && error === cancel.reason;
            await repo.finishValidationRun(run.id, {
              status: isCancelled ? 'STOPPED' : 'ERROR',
              errorCode: null,
              errorMessage: error instanceof Error ? error.message : String(error),
              errorSequence: null,
            });
            throw error;
          }
          if (!answer.ok) {
            await repo.finishValidationRun(run.id, {
              status: 'ERROR',
              errorCode: answer.code,
              errorMessage: answer.message,
              errorSequence: null,
            });
            throw new AppError('UNPROCESSABLE', automationText(answer));
          }
          const failedAt =
            answer.status === 'SUCCESS'
              ? null
              : (answer.errorSequence ?? answer.steps.at(-1)?.sequence ?? null);
          const errorText = answer.errorMessage
            ? automationErrorText(answer.errorCode, answer.errorMessage)
            : answer.status === 'STOPPED'
              ? 'The validation was stopped.'
              : null;
          const stepsBySequence = new Map(answer.steps.map((step) => [step.sequence, step]));
          for (const action of ordered) {
            const sequence = action.step.sequence;
            const step = stepsBySequence.get(sequence);
            if (failedAt === null || sequence < failedAt) {
              action.validation = 'SUCCESS';
              action.errorMessage = null;
            } else if (sequence === failedAt) {
              action.validation = 'ERROR';
              action.errorMessage = errorText;
            } else {
              action.validation = 'NOTVALIDATED';
              action.errorMessage = null;
            }
            if (step && step.status !== 'SKIPPED') {
              action.pageUrl = step.pageUrl;
              action.timestamp = step.timestamp;
              markImages(action, step.hasPageScreenshot, step.hasElementScreenshot);
            }
          }
          // Spec §4: a success stays VALIDATING (validated, ready to save); a failure returns to NONE.
          record.state = failedAt === null ? 'VALIDATING' : 'NONE';
          await store.put(userId, record);
          await repo.finishValidationRun(run.id, {
            status: answer.status,
            errorCode: answer.errorCode,
            errorMessage: errorText,
            errorSequence: failedAt,
          });
          return {
            error: failedAt === null ? null : errorText,
            code: answer.errorCode,
            data: {
              sequence: failedAt,
              actions: ordered.map((action) => ({
                sequence: action.step.sequence,
                validation: action.validation,
                errorMessage: action.errorMessage,
              })),
            },
          };
        },
        { keepAlive: true },
      );
    },

    /** PUT /extractor/edit: saves the validated draft in one transaction (the old flow stays on failure). */
    async save(
      userId: string,
      type: ExtractorType,
      header: { name?: string | undefined; description?: string | undefined },
    ): Promise<BuilderView> {
      return store.withLock(userId, type, async () => {
        const record = await current(userId, type);
        await assertEditable(userId, record);
        const ordered = record.actions.sort(bySequence);
        if (
          !isNavigator(type) &&
          (ordered.length === 0 || ordered.some((action) => action.validation !== 'SUCCESS'))
        )
          throw AppError.validation(mustValidateMessage(type));
        // An input no saved action refers to any more is not kept.
        const inputs = referencedInputs(record);
        const toSave: ActionToSave[] = [];
        for (const action of ordered) {
          const pageImage = action.hasDraftPageScreenshot
            ? await store.getImage(userId, action.id, 'page')
            : null;
          const elementImage = action.hasDraftElementScreenshot
            ? await store.getImage(userId, action.id, 'element')
            : null;
          toSave.push({
            parts: toActionRowParts(action.step, {
              id: action.id,
              sealedSecret: action.sealedSecret ? fromJson(action.sealedSecret) : null,
              saveOptionsFlag: action.saveOptionsFlag,
              pageUrl: action.pageUrl,
              isValidated: action.validation === 'SUCCESS',
              validationError: action.errorMessage,
              pageScreenshotFileId: action.pageScreenshotFileId,
              elementScreenshotFileId: action.elementScreenshotFileId,
            }),
            ...(pageImage
              ? {
                  pageImage: {
                    name: `action-${action.id}-page.jpg`,
                    mimeType: 'image/jpeg',
                    content: pageImage,
                  },
                }
              : {}),
            ...(elementImage
              ? {
                  elementImage: {
                    name: `action-${action.id}-element.jpg`,
                    mimeType: 'image/jpeg',
                    content: elementImage,
                  },
                }
              : {}),
          });
        }
        try {
          await repo.saveFlow(userId, record.extractorId, header, toSave, inputs);
        } catch (error) {
          if (isUniqueViolation(error))
            throw new AppError('NAME_EXISTS', MESSAGES['extractor.list.error.unique'], 'name');
          if (isForeignKeyViolation(error))
            throw new AppError('CONFLICT', MESSAGES['extractor.delete.dataset']);
          if (isRowNotFound(error)) throw AppError.notFound();
          throw error;
        }
        // The draft now mirrors the saved rows (their ids, their stored screenshots).
        const saved = await repo.findOwnedExtractor(userId, record.extractorId);
        if (!saved) throw AppError.notFound();
        const values = new Map(record.actions.map((action) => [action.id, action.value]));
        record.actions = saved.actions.map((row) => ({
          ...draftOf(row, userId),
          value: values.get(row.id) ?? null,
        }));
        for (const action of ordered) {
          await store.dropImage(userId, action.id, 'page');
          await store.dropImage(userId, action.id, 'element');
        }
        // The saved flow is where editing goes on from, as when an item is opened (docs/decisions.md).
        record.state = 'NONE';
        record.inputs = inputs;
        await store.put(userId, record);
        return view(userId, record);
      });
    },
  };
}
