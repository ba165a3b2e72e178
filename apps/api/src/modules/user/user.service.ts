import { hashToken, newOpaqueToken } from '@pagewright/db';
import {
  EMAIL_PATTERN,
  MESSAGES,
  isPasswordValid,
  type CurrentUserResponse,
  type SignUpRequest,
} from '@pagewright/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { ApiConfig } from '../../config.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthenticatedUser } from '../../plugins/auth.js';
import { generateTemporaryPassword, hashPassword, verifyPassword } from '../../lib/password-policy.js';
import type { Mailer } from '@pagewright/mail';
import { confirmationMail, temporaryPasswordMail } from './account-mails.js';
import type { UserRepository } from './user.repository.js';

const HOUR_MS = 60 * 60 * 1000;

interface Deps {
  config: ApiConfig;
  users: UserRepository;
  mailer: Mailer;
  log: FastifyBaseLogger;
}

/** Accounts: sign-up with e-mail confirmation, temporary passwords, password changes. */
export function createUserService({ config, users, mailer, log }: Deps) {
  return {
    async signUp(request: SignUpRequest): Promise<void> {
      if (await users.findByEmail(request.username)) {
        throw new AppError('EMAIL_EXISTS', MESSAGES['signup.email.exists'], 'username');
      }
      const confirmationToken = newOpaqueToken();
      const user = await users.create({
        email: request.username,
        firstName: request.firstName,
        lastName: request.lastName,
        passwordHash: await hashPassword(request.password),
        confirmationTokenHash: hashToken(confirmationToken),
        confirmationExpiresAt: new Date(Date.now() + config.CONFIRMATION_TOKEN_TTL_HOURS * HOUR_MS),
      });
      const link = new URL(`/user/confirmation/${confirmationToken}`, config.PUBLIC_URL).toString();
      try {
        await mailer.send(confirmationMail(user.email, user.firstName, link));
      } catch (error) {
        // Without the e-mail the account could never be confirmed: undo it so the user can retry.
        log.error({ err: error }, 'confirmation e-mail could not be sent');
        await users.delete(user.id);
        throw new AppError('SERVICE_UNAVAILABLE', MESSAGES['signup.error']);
      }
    },

    async confirm(token: string): Promise<string> {
      const user = await users.findByConfirmationTokenHash(hashToken(token));
      if (!user || !user.confirmationExpiresAt || user.confirmationExpiresAt < new Date()) {
        throw new AppError('INVALID_TOKEN', MESSAGES['login.error.invalid.token'], 'token');
      }
      await users.markEmailConfirmed(user.id);
      return MESSAGES['confirmation.success'];
    },

    async isEmailAvailable(email: string): Promise<boolean> {
      if (!EMAIL_PATTERN.test(email)) return false;
      return (await users.findByEmail(email)) === null;
    },

    async forgotPassword(email: string): Promise<void> {
      const user = await users.findByEmail(email);
      if (!user) throw new AppError('EMAIL_NOT_FOUND', MESSAGES['forgot.email.not.found'], 'username');
      const temporaryPassword = generateTemporaryPassword();
      await users.setTemporaryPassword(
        user.id,
        await hashPassword(temporaryPassword),
        new Date(Date.now() + config.TEMP_PASSWORD_TTL_HOURS * HOUR_MS),
      );
      try {
        await mailer.send(
          temporaryPasswordMail(
            user.email,
            user.firstName,
            temporaryPassword,
            config.TEMP_PASSWORD_TTL_HOURS,
          ),
        );
      } catch (error) {
        log.error({ err: error }, 'temporary-password e-mail could not be sent');
        throw new AppError('SERVICE_UNAVAILABLE', MESSAGES['forgot.internal.error']);
      }
    },

    /** A new password for the caller; every other sign-in session ends with it, this one goes on. */
    async changePassword(userId: string, keepFamilyId: string, newPassword: string): Promise<void> {
      if (!isPasswordValid(newPassword)) {
        throw new AppError('PASSWORD_NOT_VALID', MESSAGES['password.not.valid'], 'password');
      }
      const user = await users.findById(userId);
      if (!user) throw AppError.notFound(MESSAGES['login.user.not.found']);
      if (await verifyPassword(user.passwordHash, newPassword)) {
        throw new AppError('UNPROCESSABLE', MESSAGES['password.same.as.current'], 'password');
      }
      await users.setPasswordEndingOtherSessions(userId, await hashPassword(newPassword), keepFamilyId);
    },

    /** The signed-in user, as the authentication step read it for this request. */
    currentUser(caller: AuthenticatedUser): CurrentUserResponse {
      return {
        id: caller.id,
        username: caller.username,
        firstName: caller.firstName,
        lastName: caller.lastName,
        tempPasswordSet: caller.tempPasswordSet,
        daysToExpire: caller.daysToExpire,
      };
    },
  };
}
export type UserService = ReturnType<typeof createUserService>;
