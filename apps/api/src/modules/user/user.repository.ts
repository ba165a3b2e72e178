import type { PrismaClient } from '@pagewright/db';

/**
 * The only code that reads and writes user rows (and ends sessions with a password change).
 * `onSessionChange` hears of every committed write that changes what a session check reads (the
 * password state, the account itself), before the write's promise resolves (session caches).
 */
export function createUserRepository(db: PrismaClient, onSessionChange: (userId: string) => Promise<void>) {
  return {
    findByEmail(email: string) {
      return db.user.findUnique({ where: { email: email.toLowerCase() } });
    },
    findById(id: string) {
      return db.user.findUnique({ where: { id } });
    },
    findByConfirmationTokenHash(confirmationTokenHash: string) {
      return db.user.findUnique({ where: { confirmationTokenHash } });
    },
    create(data: {
      email: string;
      firstName: string;
      lastName: string;
      passwordHash: string;
      confirmationTokenHash: string;
      confirmationExpiresAt: Date;
    }) {
      return db.user.create({
        data: { ...data, email: data.email.toLowerCase(), passwordChangedAt: new Date() },
      });
    },
    async delete(id: string) {
      const deleted = await db.user.delete({ where: { id } });
      await onSessionChange(id);
      return deleted;
    },
    markEmailConfirmed(id: string) {
      return db.user.update({
        where: { id },
        data: { emailConfirmedAt: new Date(), confirmationTokenHash: null, confirmationExpiresAt: null },
      });
    },
    setTemporaryPassword(id: string, tempPasswordHash: string, tempPasswordExpiresAt: Date) {
      return db.user.update({ where: { id }, data: { tempPasswordHash, tempPasswordExpiresAt } });
    },
    /** Signed in with the temporary password: from now on a new password is required. */
    async markTemporaryPasswordInUse(id: string) {
      const user = await db.user.update({ where: { id }, data: { tempPasswordSet: true } });
      await onSessionChange(id);
      return user;
    },
    /** Signed in with the real password: a pending temporary password is no longer needed. */
    async clearTemporaryPassword(id: string) {
      const user = await db.user.update({
        where: { id },
        data: { tempPasswordHash: null, tempPasswordExpiresAt: null, tempPasswordSet: false },
      });
      await onSessionChange(id);
      return user;
    },
    /**
     * A new password, and every other sign-in session of the user ended, in one transaction: a
     * password change that leaves other sessions alive (a thief's among them) must not happen.
     */
    async setPasswordEndingOtherSessions(id: string, passwordHash: string, keepFamilyId: string) {
      const now = new Date();
      await db.$transaction([
        db.user.update({
          where: { id },
          data: {
            passwordHash,
            passwordChangedAt: now,
            tempPasswordSet: false,
            tempPasswordHash: null,
            tempPasswordExpiresAt: null,
          },
        }),
        db.refreshTokenFamily.updateMany({
          where: { userId: id, revokedAt: null, NOT: { id: keepFamilyId } },
          data: { revokedAt: now, revokeReason: 'password changed' },
        }),
      ]);
      await onSessionChange(id);
    },
  };
}
export type UserRepository = ReturnType<typeof createUserRepository>;
