import type { PrismaClient, User } from '@pagewright/db';
import { isUniqueViolation } from '../../lib/db-errors.js';

/** An F-engine user: the issuer of its tokens and its id there. */
export interface EngineSubject {
  issuer: string;
  subject: string;
}

/** A new account for an engine user: confirmed, with a password nobody knows. */
export interface EngineAccount {
  email: string;
  firstName: string;
  lastName: string;
  passwordHash: string;
}

/** The only code that reads and writes the links between F-engine users and accounts. */
export function createEngineAccountLinkRepository(db: PrismaClient) {
  async function findLinkedUser({ issuer, subject }: EngineSubject): Promise<User | null> {
    const link = await db.engineAccountLink.findUnique({
      where: { issuer_subject: { issuer, subject } },
      include: { user: true },
    });
    return link?.user ?? null;
  }

  /** Two first tokens of one engine user at once: the second finds the link the first made. */
  async function linkedOrRetry(engineUser: EngineSubject, write: () => Promise<User>): Promise<User> {
    try {
      return await write();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const user = await findLinkedUser(engineUser);
      if (!user) throw error;
      return user;
    }
  }

  return {
    findLinkedUser,

    linkExistingUser(engineUser: EngineSubject, userId: string): Promise<User> {
      return linkedOrRetry(engineUser, async () => {
        const link = await db.engineAccountLink.create({
          data: { ...engineUser, userId },
          include: { user: true },
        });
        return link.user;
      });
    },

    /**
     * An account signed up but never confirmed gets confirmed by the engine's word, and loses the
     * password whoever signed up chose (it could be anyone who typed that address): its owner signs
     * in through the engine, or sets a password with "forgot password".
     */
    linkUnconfirmedUser(engineUser: EngineSubject, userId: string, passwordHash: string): Promise<User> {
      const now = new Date();
      return linkedOrRetry(engineUser, async () => {
        const [user] = await db.$transaction([
          db.user.update({
            where: { id: userId },
            data: {
              emailConfirmedAt: now,
              confirmationTokenHash: null,
              confirmationExpiresAt: null,
              passwordHash,
              passwordChangedAt: now,
              tempPasswordHash: null,
              tempPasswordExpiresAt: null,
              tempPasswordSet: false,
            },
          }),
          db.engineAccountLink.create({ data: { ...engineUser, userId } }),
        ]);
        return user;
      });
    },

    /**
     * The account and its link in one write: an account never exists without the link that made
     * it. Confirmed now (the engine vouches for the e-mail address), so no confirmation mail.
     */
    createLinkedUser(engineUser: EngineSubject, account: EngineAccount): Promise<User> {
      const now = new Date();
      return linkedOrRetry(engineUser, async () => {
        const link = await db.engineAccountLink.create({
          data: {
            ...engineUser,
            user: {
              create: {
                ...account,
                email: account.email.toLowerCase(),
                passwordChangedAt: now,
                emailConfirmedAt: now,
              },
            },
          },
          include: { user: true },
        });
        return link.user;
      });
    },
  };
}
export type EngineAccountLinkRepository = ReturnType<typeof createEngineAccountLinkRepository>;
