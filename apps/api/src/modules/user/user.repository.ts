import type { PrismaClient } from '@pagewright/db';

/** The only code that reads and writes user rows. */
export function createUserRepository(db: PrismaClient) {
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
    delete(id: string) {
      return db.user.delete({ where: { id } });
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
    markTemporaryPasswordInUse(id: string) {
      return db.user.update({ where: { id }, data: { tempPasswordSet: true } });
    },
    /** Signed in with the real password: a pending temporary password is no longer needed. */
    clearTemporaryPassword(id: string) {
      return db.user.update({
        where: { id },
        data: { tempPasswordHash: null, tempPasswordExpiresAt: null, tempPasswordSet: false },
      });
    },
    setPassword(id: string, passwordHash: string) {
      return db.user.update({
        where: { id },
        data: {
          passwordHash,
          passwordChangedAt: new Date(),
          tempPasswordSet: false,
          tempPasswordHash: null,
          tempPasswordExpiresAt: null,
        },
      });
    },
  };
}
export type UserRepository = ReturnType<typeof createUserRepository>;
