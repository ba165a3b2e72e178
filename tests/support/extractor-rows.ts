import type { Prisma, PrismaClient } from '@pagewright/db';
import type { ExtractorInput } from '@pagewright/shared';

/** An action of a saved extractor as a test writes it (the id is the database's). */
export type ActionRow = Omit<Prisma.ExtractorActionCreateWithoutExtractorInput, 'id'>;

/**
 * A saved extractor of `userId` with its inputs and actions, written straight to the database: the
 * arrangement of a test about running it, not about recording it.
 */
export async function insertExtractorRows(
  db: PrismaClient,
  extractor: { userId: string; name: string; inputs?: ExtractorInput[]; actions: ActionRow[] },
): Promise<string> {
  const { userId, name, inputs = [], actions } = extractor;
  const created = await db.extractor.create({
    data: { userId, name, description: name, extractorType: 'EXTRACTOR', inputs },
  });
  for (const action of actions)
    await db.extractorAction.create({ data: { ...action, extractor: { connect: { id: created.id } } } });
  return created.id;
}
