import { Prisma } from '@pagewright/db';

/**
 * The database refusals services answer for, recognised in one place: services and routes never
 * import Prisma, so they ask these instead of reading Prisma's error codes.
 */
const hasCode = (error: unknown, code: string): boolean =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === code;

/** A unique index refused the write (P2002): e.g. two saves took the same name at once. */
export const isUniqueViolation = (error: unknown): boolean => hasCode(error, 'P2002');

/** A foreign key refused the write (P2003): the row it points at is gone. */
export const isForeignKeyViolation = (error: unknown): boolean => hasCode(error, 'P2003');

/** The row an update or delete needed was not there (P2025). */
export const isRowNotFound = (error: unknown): boolean => hasCode(error, 'P2025');
