import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import {
  Prisma,
  type ExtractorType,
  type PrismaClient,
  type RunStatus,
  type SealedSecret,
} from '@pagewright/db';

/** What copying reads of each action: the row and every relation that belongs to the flow. */
const copiedActionInclude = {
  getTable: { include: { columns: true } },
  numberMask: true,
  dateMask: true,
  savedSecret: true,
} as const satisfies Prisma.ExtractorActionInclude;

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

/** One item of the dashboard list as read: timestamps already as ISO-8601 UTC text. */
export interface ExtractorListRow {
  id: string;
  name: string;
  description: string;
  extractorType: ExtractorType;
  viewerEmail: string | null;
  status: RunStatus | null;
  createdAt: string;
  /** The errors not yet shown, newest first; null when there are none. */
  errorMessages: { id: string; message: string; errorCode: number | null; createdAt: string }[] | null;
  lastRunId: string | null;
  /** Extractor.inputs as stored (packages/shared declaredInputsOf reads it). */
  inputs: unknown;
}

/** A timestamp column (UTC, without zone) as JavaScript's toISOString() writes it. */
const isoText = (column: string) => `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Whether item `e` is listed on the dashboard (docs/decisions.md): it was saved (it has actions) or
 * validated or run (a run of any trigger, or the status one left). A draft POST /extractor/start
 * created and nobody saved or validated is not: its builder reaches it by id. One probe each on
 * ExtractorAction (extractorId, sequence) and Run (extractorId, startedAt). `unlistedDraft` below
 * says the same in Prisma's terms.
 */
const isListed = (e: string) => `(${e}.status IS NOT NULL
           OR EXISTS (SELECT 1 FROM "ExtractorAction" a WHERE a."extractorId" = ${e}.id)
           OR EXISTS (SELECT 1 FROM "Run" v WHERE v."extractorId" = ${e}.id))`;

/** An item `isListed` leaves off the dashboard, and that no scheduler names. */
const unlistedDraft = {
  status: null,
  actions: { none: {} },
  runs: { none: {} },
  schedulers: { none: {} },
} as const satisfies Prisma.ExtractorWhereInput;

/**
 * The dashboard list, which every open tab polls and reloads on each run status: one query on
 * node-postgres. Through Prisma it was three (the items, their errors as a second query, the latest
 * runs beside), and Prisma's per-call and per-row work, not PostgreSQL, held the API to ~450
 * answers/s. Each item's unseen errors (index extractorId, isCleared, createdAt) and its latest
 * MANUAL or SCHEDULED run (index extractorId, startedAt) are one index probe each. Named, so each
 * pooled connection parses and plans it once.
 */
const EXTRACTOR_LIST = {
  name: 'extractor-list',
  text: `SELECT e.id, e.name, e.description, e."extractorType", e."viewerEmail", e.status,
                ${isoText('e."createdAt"')} AS "createdAt", m."errorMessages", r.id AS "lastRunId",
                e.inputs
         FROM "Extractor" e
         LEFT JOIN LATERAL (
           SELECT json_agg(json_build_object('id', m.id, 'message', m.message,
                                             'errorCode', m."errorCode",
                                             'createdAt', ${isoText('m."createdAt"')})
                           ORDER BY m."createdAt" DESC) AS "errorMessages"
           FROM "ExtractorErrorMessage" m
           WHERE m."extractorId" = e.id AND m."isCleared" = false
         ) m ON true
         LEFT JOIN LATERAL (
           SELECT id FROM "Run"
           WHERE "extractorId" = e.id AND "trigger" IN ('MANUAL', 'SCHEDULED')
           ORDER BY "startedAt" DESC
           LIMIT 1
         ) r ON true
         WHERE e."userId" = $1::uuid AND e."extractorType" = $2::"ExtractorType"
           AND ${isListed('e')}
         ORDER BY e."createdAt" DESC`,
};

/** Extractors, insertors and navigators of one user; every query carries the owner. */
export function createExtractorRepository(db: PrismaClient, sql: pg.Pool) {
  return {
    /**
     * The dashboard list: the listed items (`isListed`), each with its unseen errors and latest
     * operator run (validation runs are the builder's).
     */
    async list(userId: string, extractorType: ExtractorType): Promise<ExtractorListRow[]> {
      const { rows } = await sql.query<ExtractorListRow>({
        ...EXTRACTOR_LIST,
        values: [userId, extractorType],
      });
      return rows;
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
    /**
     * Deletes the caller's unlisted draft of this type and name, if there is one: the dashboard
     * does not show it, so its name must not stay taken by it.
     */
    async deleteUnlistedDraft(userId: string, extractorType: ExtractorType, name: string): Promise<void> {
      await db.extractor.deleteMany({ where: { userId, extractorType, name, ...unlistedDraft } });
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
            // The copy's actions refer to the same inputs.
            inputs: source.inputs ?? [],
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
    /** Whether one of the caller's schedulers runs it (it cannot be deleted then). */
    async isScheduled(userId: string, id: string) {
      return (await db.schedulerExtractor.count({ where: { extractorId: id, scheduler: { userId } } })) > 0;
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
