import {
  MESSAGES,
  type ExtractorListItem,
  type ExtractorType,
  type RenameExtractorRequest,
  type StartExtractorRequest,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import { isPrismaError, type ExtractorRepository } from './extractor.repository.js';

const nameTaken = () => new AppError('NAME_EXISTS', MESSAGES['extractor.list.error.unique'], 'name');

/** Extractors, insertors and navigators: the list, creation, rename, delete, shown errors. */
export function createExtractorService(extractors: ExtractorRepository) {
  async function ownedOrNotFound(userId: string, id: string) {
    const extractor = await extractors.findOwned(userId, id);
    if (!extractor) throw AppError.notFound();
    return extractor;
  }

  return {
    async list(userId: string, extractorType: ExtractorType): Promise<ExtractorListItem[]> {
      const rows = await extractors.list(userId, extractorType);
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        description: row.description,
        extractorType: row.extractorType,
        viewerEmail: row.viewerEmail,
        status: row.status,
        errorMessages: row.errorMessages.map((e) => ({
          id: e.id,
          errorMessage: e.message,
          createdAt: e.createdAt.toISOString(),
        })),
        errorMessage: row.errorMessages[0]?.message ?? null,
        createdAt: row.createdAt.toISOString(),
      }));
    },

    async start(userId: string, request: StartExtractorRequest) {
      const isNavigator =
        request.extractorType === 'NAVIGATOR' || request.extractorType === 'FENGINE_NAVIGATOR';
      try {
        return await extractors.create({
          userId,
          name: request.name,
          description: request.description,
          extractorType: request.extractorType,
          viewerEmail: isNavigator ? (request.viewerEmail ?? null) : null,
        });
      } catch (error) {
        if (isPrismaError(error, 'P2002')) throw nameTaken();
        throw error;
      }
    },

    async rename(userId: string, request: RenameExtractorRequest) {
      await ownedOrNotFound(userId, request.id);
      try {
        await extractors.rename(userId, request.id, request.name, request.description);
      } catch (error) {
        if (isPrismaError(error, 'P2002')) throw nameTaken();
        throw error;
      }
      return ownedOrNotFound(userId, request.id);
    },

    async delete(userId: string, id: string): Promise<void> {
      const extractor = await ownedOrNotFound(userId, id);
      if (extractor.status === 'EXECUTING') {
        throw new AppError('CONFLICT', MESSAGES['extractor.delete.executing']);
      }
      try {
        await extractors.delete(userId, id);
      } catch (error) {
        // A dataset maps one of its actions: the deferred foreign key refuses at commit.
        if (isPrismaError(error, 'P2003'))
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
