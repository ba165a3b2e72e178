import { randomUUID } from 'node:crypto';
import { Prisma, type ExtractorType, type PrismaClient, type SealedSecret } from '@pagewright/db';

/** Whether a Prisma failure is the given known error code (P2002 unique, P2003 foreign key). */
export const isPrismaError = (error: unknown, code: 'P2002' | 'P2003' | 'P2025'): boolean =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === code;

/** What copying reads of each action: the row and every relation that belongs to the flow. */
const copiedActionInclude = {
  getTable: { include: { columns: true } },
  numberMask: true,
  dateMask: true,
  savedSecret: true,
} as const satisfies Prisma.ExtractorActionInclude;
export type ActionToCopy = Prisma.ExtractorActionGetPayload<{ include: typeof copiedActionInclude }>;

/**
 * Re-seals one secret of a copied action for the copy's action id (secrets are bound to
 * user + action); null drops it.
 */
export type ResealSecret = (
  sealed: SealedSecret,
  fromActionId: string,
  toActionId: string,
) => SealedSecret | null;

const sealedOf = (row: { ciphertext: Uint8Array; iv: Uint8Array; authTag: Uint8Array }): SealedSecret => ({
  ciphertext: Buffer.from(row.ciphertext),
  iv: Buffer.from(row.iv),
  authTag: Buffer.from(row.authTag),
});

/** Columns of a copied row that are its own: identity, owner link and timestamps. */
const withoutIdentity = <T extends { id: string; createdAt: Date; updatedAt: Date }>(row: T) => {
  const { id: _id, createdAt: _createdAt, updatedAt: _updatedAt, ...rest } = row;
  return rest;
};

/** A mask row without identity and without the action it belongs to (the copy's is set by nesting). */
const withoutOwner = <T extends { id: string; actionId: string; createdAt: Date; updatedAt: Date }>(
  row: T,
) => {
  const { actionId: _actionId, ...rest } = withoutIdentity(row);
  return rest;
};

/** Extractors, insertors and navigators of one user; every query carries the owner. */
export function createExtractorRepository(db: PrismaClient) {
  return {
    /**
     * The list with each item's latest operator run (MANUAL or SCHEDULED; validation runs are the
     * builder's own). Prisma applies a nested `take` in memory after reading every related row, so
     * the latest run is read by one LATERAL query instead: one index probe per item on
     * (extractorId, startedAt), run beside the list query.
     */
    async list(userId: string, extractorType: ExtractorType) {
      const [rows, lastRuns] = await Promise.all([
        db.extractor.findMany({
          where: { userId, extractorType },
          orderBy: { createdAt: 'desc' },
          include: { errorMessages: { where: { isCleared: false }, orderBy: { createdAt: 'desc' } } },
        }),
        db.$queryRaw<{ extractorId: string; runId: string }[]>`
          SELECT e."id" AS "extractorId", r."id" AS "runId"
          FROM "Extractor" e
          CROSS JOIN LATERAL (
            SELECT "id" FROM "Run"
            WHERE "extractorId" = e."id" AND "trigger" IN ('MANUAL', 'SCHEDULED')
            ORDER BY "startedAt" DESC
            LIMIT 1
          ) r
          WHERE e."userId" = ${userId}::uuid AND e."extractorType" = ${extractorType}::"ExtractorType"`,
      ]);
      const lastRunIds = new Map(lastRuns.map((run) => [run.extractorId, run.runId]));
      return rows.map((row) => ({ ...row, lastRunId: lastRunIds.get(row.id) ?? null }));
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
    /** The names the user's items of one type use (copies pick the first free one). */
    async namesOf(userId: string, extractorType: ExtractorType): Promise<Set<string>> {
      const rows = await db.extractor.findMany({ where: { userId, extractorType }, select: { name: true } });
      return new Set(rows.map((row) => row.name));
    },
    /**
     * A new item named `name` with every action of `sourceId` and their tables, masks and secrets,
     * in one transaction. Runs, errors, screen-share links, schedulers and dataset mappings stay
     * with the original. Screenshots are shared: stored files are never changed, only replaced.
     */
    async copy(userId: string, sourceId: string, name: string, resealSecret: ResealSecret) {
      return db.$transaction(async (tx) => {
        const source = await tx.extractor.findFirstOrThrow({
          where: { id: sourceId, userId },
          include: { actions: { include: copiedActionInclude, orderBy: { sequence: 'asc' } } },
        });
        const created = await tx.extractor.create({
          data: {
            userId,
            name,
            description: source.description,
            extractorType: source.extractorType,
            viewerEmail: source.viewerEmail,
          },
        });
        for (const action of source.actions) {
          const { getTable, numberMask, dateMask, savedSecret, ...row } = action;
          const id = randomUUID();
          const typed =
            row.secretCiphertext && row.secretIv && row.secretAuthTag
              ? resealSecret(
                  sealedOf({
                    ciphertext: row.secretCiphertext,
                    iv: row.secretIv,
                    authTag: row.secretAuthTag,
                  }),
                  action.id,
                  id,
                )
              : null;
          const saved = savedSecret ? resealSecret(sealedOf(savedSecret), action.id, id) : null;
          const hadTypedSecret = row.secretCiphertext !== null;
          await tx.extractorAction.create({
            data: {
              ...withoutIdentity(row),
              id,
              extractorId: created.id,
              fallbackLocators: row.fallbackLocators ?? [],
              framePath: row.framePath ?? [],
              options: row.options ?? Prisma.DbNull,
              fengineData: row.fengineData ?? Prisma.DbNull,
              secretCiphertext: typed ? new Uint8Array(typed.ciphertext) : null,
              secretIv: typed ? new Uint8Array(typed.iv) : null,
              secretAuthTag: typed ? new Uint8Array(typed.authTag) : null,
              // A typed secret that could not be carried over must be recorded again.
              isValidated: row.isValidated && (!hadTypedSecret || typed !== null),
              ...(getTable && {
                getTable: {
                  create: {
                    name: getTable.name,
                    tableSelector: getTable.tableSelector,
                    rowSelector: getTable.rowSelector,
                    columns: {
                      create: getTable.columns.map(({ tableId: _tableId, ...column }) => ({
                        ...withoutIdentity(column),
                        options: column.options ?? Prisma.DbNull,
                      })),
                    },
                  },
                },
              }),
              ...(numberMask && { numberMask: { create: withoutOwner(numberMask) } }),
              ...(dateMask && { dateMask: { create: withoutOwner(dateMask) } }),
              ...(saved && {
                savedSecret: {
                  create: {
                    userId,
                    ciphertext: new Uint8Array(saved.ciphertext),
                    iv: new Uint8Array(saved.iv),
                    authTag: new Uint8Array(saved.authTag),
                  },
                },
              }),
            },
          });
        }
        return created;
      });
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
