import { actionSecretContext, type SealedSecret, type SecretBox } from '@pagewright/db';
import {
  MESSAGES,
  declaredInputsOf,
  nextCopyName,
  type ExtractorListItem,
  type ExtractorType,
  type RenameExtractorRequest,
  type StartExtractorRequest,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import { isForeignKeyViolation, isRowNotFound, isUniqueViolation } from '../../lib/db-errors.js';
import type { ExtractorRepository } from './extractor.repository.js';

const nameTaken = () => new AppError('NAME_EXISTS', MESSAGES['extractor.list.error.unique'], 'name');

/** Two copies at once may pick the same free name: the unique index refuses one, which tries again. */
const COPY_NAME_ATTEMPTS = 5;

/** Extractors, insertors and navigators: the list, creation, copy, rename, delete, shown errors. */
export function createExtractorService(extractors: ExtractorRepository, secrets: SecretBox) {
  async function ownedOrNotFound(userId: string, id: string) {
    const extractor = await extractors.findOwned(userId, id);
    if (!extractor) throw AppError.notFound();
    return extractor;
  }

  return {
    async list(userId: string, extractorType: ExtractorType): Promise<ExtractorListItem[]> {
      const rows = await extractors.list(userId, extractorType);
      return rows.map((row) => {
        const errorMessages = row.errorMessages ?? [];
        return {
          id: row.id,
          name: row.name,
          description: row.description,
          extractorType: row.extractorType,
          viewerEmail: row.viewerEmail,
          status: row.status,
          errorMessages: errorMessages.map((e) => ({
            id: e.id,
            errorMessage: e.message,
            errorCode: e.errorCode,
            createdAt: e.createdAt,
          })),
          errorMessage: errorMessages[0]?.message ?? null,
          lastRunId: row.lastRunId,
          createdAt: row.createdAt,
          inputs: declaredInputsOf(row.inputs),
        };
      });
    },

    /**
     * Creates an item and makes it the caller's current builder (`openBuilder`) as one step: an
     * item whose builder did not open is deleted again, so a failed start leaves no item behind.
     */
    async start(
      userId: string,
      request: StartExtractorRequest,
      openBuilder: (extractorId: string) => Promise<unknown>,
    ) {
      const isNavigator =
        request.extractorType === 'NAVIGATOR' || request.extractorType === 'FENGINE_NAVIGATOR';
      // A draft of this name that was never saved nor validated is not listed: it gives way, and the
      // builder it had (if open) is replaced below anyway, as starting any item replaces it.
      await extractors.deleteUnlistedDraft(userId, request.extractorType, request.name);
      const created = await extractors
        .create({
          userId,
          name: request.name,
          description: request.description,
          extractorType: request.extractorType,
          viewerEmail: isNavigator ? (request.viewerEmail ?? null) : null,
        })
        .catch((error: unknown) => {
          throw isUniqueViolation(error) ? nameTaken() : error;
        });
      try {
        await openBuilder(created.id);
      } catch (error) {
        await extractors.delete(userId, created.id).catch((deleteError: unknown) => {
          throw new AggregateError([error, deleteError], 'an item whose builder did not open stayed');
        });
        throw error;
      }
      return created;
    },

    /**
     * A copy of one of the caller's items with its whole flow. Secrets (a TYPE_PASSWORD's typed
     * value, answers saved for next time) are bound to user + action, so each is opened and sealed
     * again for the copy's action; one that no longer opens (key changed) is dropped and that
     * action must be recorded again.
     */
    async copy(userId: string, id: string): Promise<ExtractorListItem> {
      const source = await ownedOrNotFound(userId, id);
      const reseal = (sealed: SealedSecret, fromActionId: string, toActionId: string) => {
        try {
          const plain = secrets.open(sealed, actionSecretContext(userId, fromActionId));
          return secrets.seal(plain, actionSecretContext(userId, toActionId));
        } catch {
          return null;
        }
      };
      for (let attempt = 1; ; attempt += 1) {
        const name = nextCopyName(source.name, await extractors.namesOf(userId, source.extractorType));
        try {
          const created = await extractors.copy(userId, id, name, reseal);
          return {
            id: created.id,
            name: created.name,
            description: created.description,
            extractorType: created.extractorType,
            viewerEmail: created.viewerEmail,
            status: created.status,
            errorMessages: [],
            errorMessage: null,
            // Runs stay with the original.
            lastRunId: null,
            createdAt: created.createdAt.toISOString(),
            inputs: declaredInputsOf(created.inputs),
          };
        } catch (error) {
          if (isRowNotFound(error)) throw AppError.notFound();
          if (!isUniqueViolation(error)) throw error;
          if (attempt >= COPY_NAME_ATTEMPTS) throw nameTaken();
        }
      }
    },

    async rename(userId: string, request: RenameExtractorRequest) {
      await ownedOrNotFound(userId, request.id);
      try {
        await extractors.rename(userId, request.id, request.name, request.description);
      } catch (error) {
        if (isUniqueViolation(error)) throw nameTaken();
        throw error;
      }
      return ownedOrNotFound(userId, request.id);
    },

    async delete(userId: string, id: string): Promise<void> {
      const extractor = await ownedOrNotFound(userId, id);
      if (extractor.status === 'EXECUTING') {
        throw new AppError('CONFLICT', MESSAGES['extractor.delete.executing']);
      }
      if (await extractors.isScheduled(userId, id))
        throw new AppError('CONFLICT', MESSAGES['extractor.delete.scheduler']);
      try {
        await extractors.delete(userId, id);
      } catch (error) {
        // A dataset maps one of its actions: the deferred foreign key refuses at commit.
        if (isForeignKeyViolation(error))
          throw new AppError('CONFLICT', MESSAGES['extractor.delete.dataset']);
        throw error;
      }
    },

    async clearShownErrors(userId: string, id: string): Promise<void> {
      await ownedOrNotFound(userId, id);
      await extractors.clearErrorMessages(userId, id);
    },
  };
}
export type ExtractorService = ReturnType<typeof createExtractorService>;
