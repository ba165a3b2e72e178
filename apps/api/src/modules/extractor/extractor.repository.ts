import { Prisma, type ExtractorType, type PrismaClient } from '@pagewright/db';

/** Whether a Prisma failure is the given known error code (P2002 unique, P2003 foreign key). */
export const isPrismaError = (error: unknown, code: 'P2002' | 'P2003' | 'P2025'): boolean =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === code;

/** Extractors, insertors and navigators of one user; every query carries the owner. */
export function createExtractorRepository(db: PrismaClient) {
  return {
    list(userId: string, extractorType: ExtractorType) {
      return db.extractor.findMany({
        where: { userId, extractorType },
        orderBy: { createdAt: 'desc' },
        include: { errorMessages: { where: { isCleared: false }, orderBy: { createdAt: 'desc' } } },
      });
    },
    findOwned(userId: string, id: string) {
      return db.extractor.findFirst({ where: { id, userId } });
    },
    create(data: {
      userId: string;
      name: string;
      description: string;
      extractorType: ExtractorType;
      viewerEmail: string | null;
    }) {
      return db.extractor.create({ data });
    },
    rename(userId: string, id: string, name: string, description: string) {
      return db.extractor.updateMany({ where: { id, userId }, data: { name, description } });
    },
    delete(userId: string, id: string) {
      return db.extractor.deleteMany({ where: { id, userId } });
    },
    clearErrorMessages(userId: string, id: string) {
      return db.extractorErrorMessage.updateMany({
        where: { extractorId: id, isCleared: false, extractor: { userId } },
        data: { isCleared: true },
      });
    },
  };
}
export type ExtractorRepository = ReturnType<typeof createExtractorRepository>;
