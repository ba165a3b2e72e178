import type { PrismaClient } from '@pagewright/db';

/** A user's stored settings; defaults are not stored, they come from @pagewright/shared. */
export function createSettingsRepository(db: PrismaClient) {
  return {
    findAll(userId: string) {
      return db.userSetting.findMany({ where: { userId }, select: { name: true, value: true } });
    },
    find(userId: string, name: string) {
      return db.userSetting.findUnique({ where: { userId_name: { userId, name } }, select: { value: true } });
    },
    upsert(userId: string, name: string, value: string) {
      return db.userSetting.upsert({
        where: { userId_name: { userId, name } },
        create: { userId, name, value },
        update: { value },
      });
    },
  };
}
export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
