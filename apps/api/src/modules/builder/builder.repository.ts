import {
  createFileStorage,
  flowActionInclude,
  type ActionRowParts,
  type FileStorage,
  type PrismaClient,
} from '@pagewright/db';
import type { ExtractorInput } from '@pagewright/shared';

export interface ImageToStore {
  name: string;
  mimeType: string;
  content: Buffer;
}

/** An action to save: its rows, and draft screenshots that become StoredFiles on the way. */
export interface ActionToSave {
  parts: ActionRowParts;
  pageImage?: ImageToStore | undefined;
  elementImage?: ImageToStore | undefined;
}

/** The builder's reads and writes; every one is scoped to the owner. */
export function createBuilderRepository(db: PrismaClient, files: FileStorage = createFileStorage(db)) {
  return {
    findOwnedExtractor(userId: string, id: string) {
      return db.extractor.findFirst({
        where: { id, userId },
        include: { actions: { orderBy: { sequence: 'asc' }, include: flowActionInclude } },
      });
    },

    findOwnedExtractorHeader(userId: string, id: string) {
      return db.extractor.findFirst({
        where: { id, userId },
        select: { id: true, name: true, description: true, extractorType: true, viewerEmail: true },
      });
    },

    findOwnedFile(userId: string, id: string) {
      return files.get(id, userId);
    },

    /**
     * Replaces the stored flow with the draft in one transaction: a failed save leaves the old flow
     * as it was. Kept actions are updated in place (their run steps and dataset mappings stay
     * linked); table columns are matched by label. Throws P2003 when a removed action or column is
     * still mapped by a dataset.
     */
    async saveFlow(
      userId: string,
      extractorId: string,
      header: { name?: string | undefined; description?: string | undefined },
      actions: ActionToSave[],
      inputs: ExtractorInput[],
    ): Promise<void> {
      await db.$transaction(
        async (tx) => {
          const storeImage = async (image: ImageToStore | undefined) =>
            image ? await files.put(image.content, { userId, ...image }, tx) : undefined;

          await tx.extractor.update({
            where: { id: extractorId },
            data: {
              ...(header.name ? { name: header.name } : {}),
              ...(header.description ? { description: header.description } : {}),
              inputs,
            },
          });
          const existing = await tx.extractorAction.findMany({
            where: { extractorId },
            select: { id: true, getTable: { select: { id: true } } },
          });
          const existingIds = new Map(existing.map((row) => [row.id, row]));
          const keptIds = actions.map((entry) => entry.parts.action.id);
          // Out of the way of the (extractorId, sequence) unique index while sequences move.
          await tx.$executeRaw`UPDATE "ExtractorAction" SET "sequence" = -"sequence" - 1 WHERE "extractorId" = ${extractorId}::uuid`;
          await tx.extractorAction.deleteMany({ where: { extractorId, id: { notIn: keptIds } } });

          for (const entry of actions) {
            const { action, numberMask, dateMask, table } = entry.parts;
            const pageShotId = (await storeImage(entry.pageImage)) ?? action.pageScreenshotFileId ?? null;
            const elementShotId =
              (await storeImage(entry.elementImage)) ?? action.elementScreenshotFileId ?? null;
            const row = {
              ...action,
              pageScreenshotFileId: pageShotId,
              elementScreenshotFileId: elementShotId,
            };
            const previous = existingIds.get(action.id);
            if (previous) {
              const { id, ...changes } = row;
              await tx.extractorAction.update({ where: { id }, data: changes });
              await tx.numberMask.deleteMany({ where: { actionId: id } });
              await tx.dateMask.deleteMany({ where: { actionId: id } });
            } else {
              await tx.extractorAction.create({ data: { ...row, extractorId } });
            }
            if (numberMask) await tx.numberMask.create({ data: { ...numberMask, actionId: action.id } });
            if (dateMask) await tx.dateMask.create({ data: { ...dateMask, actionId: action.id } });

            const previousTableId = previous?.getTable?.id;
            if (!table) {
              if (previousTableId) await tx.getTable.delete({ where: { id: previousTableId } });
              continue;
            }
            const saved = await tx.getTable.upsert({
              where: { actionId: action.id },
              create: {
                actionId: action.id,
                name: table.name,
                tableSelector: table.tableSelector,
                rowSelector: table.rowSelector,
              },
              update: {
                name: table.name,
                tableSelector: table.tableSelector,
                rowSelector: table.rowSelector,
              },
              select: { id: true },
            });
            const labels = table.columns.map((column) => column.label);
            await tx.getTableColumn.deleteMany({ where: { tableId: saved.id, label: { notIn: labels } } });
            await tx.$executeRaw`UPDATE "GetTableColumn" SET "sequence" = -"sequence" - 1 WHERE "tableId" = ${saved.id}::uuid`;
            for (const column of table.columns) {
              await tx.getTableColumn.upsert({
                where: { tableId_label: { tableId: saved.id, label: column.label } },
                create: { ...column, tableId: saved.id },
                update: {
                  sequence: column.sequence,
                  selector: column.selector,
                  type: column.type,
                  options: column.options ?? {},
                },
              });
            }
          }
        },
        { timeout: 30_000 },
      );
    },

    /** A validation run (trigger VALIDATION): asks during it need a run; the list status stays. */
    createValidationRun(userId: string, extractorId: string) {
      return db.run.create({
        data: { extractorId, userId, status: 'EXECUTING', trigger: 'VALIDATION' },
        select: { id: true },
      });
    },

    finishValidationRun(
      runId: string,
      end: {
        status: 'SUCCESS' | 'ERROR' | 'STOPPED';
        errorCode: number | null;
        errorMessage: string | null;
        errorSequence: number | null;
      },
    ) {
      return db.run.updateMany({
        where: { id: runId, status: 'EXECUTING' },
        data: { ...end, finishedAt: new Date() },
      });
    },

    /** Navigators: the run a screen share shows, recorded while the navigator is driven live. */
    createShareRun(userId: string, extractorId: string) {
      return db.$transaction(async (tx) => {
        await tx.extractor.update({ where: { id: extractorId }, data: { status: 'EXECUTING' } });
        return tx.run.create({
          data: { extractorId, userId, status: 'EXECUTING', trigger: 'MANUAL' },
          select: { id: true },
        });
      });
    },

    finishShareRun(runId: string, extractorId: string) {
      const finishedAt = new Date();
      return db.$transaction([
        db.run.updateMany({
          where: { id: runId, status: 'EXECUTING' },
          data: { status: 'SUCCESS', finishedAt },
        }),
        db.extractor.updateMany({
          where: { id: extractorId, status: 'EXECUTING' },
          data: { status: 'SUCCESS', lastRunAt: finishedAt },
        }),
      ]);
    },
  };
}
export type BuilderRepository = ReturnType<typeof createBuilderRepository>;
