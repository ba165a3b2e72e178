import { hashToken, newOpaqueToken } from '@pagewright/db';
import { MESSAGES, type LoginResponse, type RefreshResponse } from '@pagewright/shared';
import type { User } from '@pagewright/db';
import type { ApiConfig } from '../../config.js';
import { AppError } from '../../lib/app-error.js';
import type { AccessTokens } from '../../lib/access-token.js';
import type { LoginFailureCeiling } from './login-failures.js';
import { hashPassword, passwordState, verifyPassword } from '../../lib/password-policy.js';
import type { SessionRepository } from './session.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const sessionExpired = () => new AppError('SESSION_EXPIRED', MESSAGES['login.error.session.expired']);

/**
 * The user rows sign-in reads and writes. The user module's repository holds them; app.ts hands it
 * in, as modules never import each other.
 */
export interface SignInUsers {
  findByEmail(email: string): Promise<User | null>;
  findById(id: string): Promise<User | null>;
  /** Signed in with the temporary password: from now on a new password is required. */
  markTemporaryPasswordInUse(id: string): Promise<User>;
  /** Signed in with the real password: a pending temporary password is no longer needed. */
  clearTemporaryPassword(id: string): Promise<User>;
}

interface Deps {
  config: ApiConfig;
  users: SignInUsers;
  sessions: SessionRepository;
  accessTokens: AccessTokens;
  loginFailures: LoginFailureCeiling;
}

/**
 * Sign-in and sessions: argon2id password check, short-lived access JWTs and rotating refresh
 * tokens grouped in families. Presenting a refresh token that was already rotated revokes its whole
 * family (the token was copied; whoever holds it must sign in again), unless it comes back within a
 * few seconds of its rotation, which is a client that lost the answer.
 */
export function createAuthService({ config, users, sessions, accessTokens, loginFailures }: Deps) {
  // Verifying against a real hash when the e-mail is unknown keeps both paths equally slow.
  const unknownUserHash = hashPassword('unknown-user-timing-guard-1234!');

  function assertMaySignIn(user: User): void {
    if (!user.emailConfirmedAt)
      throw new AppError('EMAIL_NOT_CONFIRMED', MESSAGES['login.error.not.confirmed']);
    if (!user.enabled) throw new AppError('USER_DISABLED', MESSAGES['login.error.disabled']);
  }

  async function startSession(
    user: User,
    options: { startedByEngine?: boolean } = {},
  ): Promise<LoginResponse> {
    const refreshToken = newOpaqueToken();
    const family = await sessions.createFamilyWithToken(
      user.id,
      hashToken(refreshToken),
      new Date(Date.now() + config.REFRESH_TOKEN_TTL_DAYS * DAY_MS),
      options.startedByEngine ?? false,
    );
    const { daysToExpire } = passwordState(user, config.PASSWORD_EXPIRY_DAYS);
    return {
      accessToken: accessTokens.issue({ sub: user.id, username: user.email, fid: family.id }),
      refreshToken,
      username: user.email,
      tempPasswordSet: user.tempPasswordSet,
      enabled: user.enabled,
      daysToExpire,
      viewerEmail: user.viewerEmail,
    };
  }

  return {
    /** A new sign-in session for a user already checked: remote-engine sign-in starts one too. */
    startSession,

    /** Sign-in from `clientAddress` (the connection's peer, or the client a trusted proxy names). */
    async login(username: string, password: string, clientAddress: string): Promise<LoginResponse> {
      if (await loginFailures.isOverCeiling(clientAddress))
        throw new AppError('RATE_LIMITED', MESSAGES['login.error.too.many.attempts']);
      const invalidCredentials = async () => {
        await loginFailures.recordFailure(clientAddress);
        return new AppError('INVALID_CREDENTIALS', MESSAGES['login.error.credentials']);
      };
      const user = await users.findByEmail(username.trim());
      if (!user) {
        await verifyPassword(await unknownUserHash, password);
        throw await invalidCredentials();
      }
      const isPasswordRight = await verifyPassword(user.passwordHash, password);
      const isTemporaryPasswordRight =
        !isPasswordRight &&
        user.tempPasswordHash !== null &&
        user.tempPasswordExpiresAt !== null &&
        user.tempPasswordExpiresAt > new Date() &&
        (await verifyPassword(user.tempPasswordHash, password));
      if (!isPasswordRight && !isTemporaryPasswordRight) throw await invalidCredentials();
      assertMaySignIn(user);

      let signedIn = user;
      if (isTemporaryPasswordRight && !user.tempPasswordSet) {
        signedIn = await users.markTemporaryPasswordInUse(user.id);
      } else if (isPasswordRight && user.tempPasswordHash) {
        signedIn = await users.clearTemporaryPassword(user.id);
      }
      return startSession(signedIn);
    },

    async refresh(refreshToken: string): Promise<RefreshResponse> {
      const stored = await sessions.findTokenWithFamily(hashToken(refreshToken));
      if (!stored) throw sessionExpired();
      const { family } = stored;
      if (family.revokedAt || family.expiresAt < new Date() || stored.expiresAt < new Date())
        throw sessionExpired();
      const graceEndsAt =
        stored.usedAt && stored.usedAt.getTime() + config.REFRESH_TOKEN_REUSE_GRACE_SECONDS * 1000;
      if (graceEndsAt && graceEndsAt <= Date.now()) {
        await sessions.revokeFamily(family, 'refresh token reused');
        throw sessionExpired();
      }
      const user = await users.findById(family.userId);
      if (!user) throw sessionExpired();
      if (!user.enabled) throw new AppError('USER_DISABLED', MESSAGES['login.error.disabled']);

      const nextToken = newOpaqueToken();
      const rotated =
        !graceEndsAt && (await sessions.rotate(stored.id, family.id, hashToken(nextToken), family.expiresAt));
      // Within the grace, or rotated by a concurrent call this instant: a sibling token, same family.
      if (!rotated) await sessions.addToken(family.id, hashToken(nextToken), family.expiresAt);
      return {
        accessToken: accessTokens.issue({ sub: user.id, username: user.email, fid: family.id }),
        refreshToken: nextToken,
        username: user.email,
      };
    },

    async loginWithToken(token: string): Promise<LoginResponse> {
      const loginToken = await sessions.consumeLoginToken(hashToken(token));
      if (!loginToken) throw new AppError('INVALID_TOKEN', MESSAGES['login.error.invalid.token'], 'token');
      const user = await users.findById(loginToken.userId);
      if (!user) throw new AppError('INVALID_TOKEN', MESSAGES['login.error.invalid.token'], 'token');
      assertMaySignIn(user);
      return startSession(user);
    },

    async issueLoginToken(userId: string, purpose: string): Promise<{ token: string; expiresAt: string }> {
      const token = newOpaqueToken();
      const expiresAt = new Date(Date.now() + config.LOGIN_TOKEN_TTL_SECONDS * 1000);
      await sessions.createLoginToken(userId, hashToken(token), purpose, expiresAt);
      return { token, expiresAt: expiresAt.toISOString() };
    },

    /**
     * Ends the sign-in session a refresh token belongs to, for its own user only: the caller proves
     * who it is with its access token, which may have expired (a tab left open still signs out).
     * An unknown refresh token is already ended.
     */
    async logout(accessToken: string | undefined, refreshToken: string): Promise<void> {
      const caller = accessToken ? accessTokens.verify(accessToken, { allowExpired: true }) : null;
      if (!caller) throw new AppError('UNAUTHORIZED', MESSAGES['error.unauthorized']);
      const stored = await sessions.findTokenWithFamily(hashToken(refreshToken));
      if (!stored) return;
      if (stored.family.userId !== caller.sub) {
        throw new AppError('INVALID_TOKEN', MESSAGES['login.error.invalid.token'], 'refreshToken');
      }
      await sessions.revokeFamily(stored.family, 'logout');
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
