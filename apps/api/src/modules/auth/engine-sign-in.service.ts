import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { User } from '@pagewright/db';
import { MESSAGES, type LoginResponse } from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import type { AuthService, SignInUsers } from './auth.service.js';
import type { EngineAccountLinkRepository, EngineSubject } from './engine-account-link.repository.js';
import { EngineTokenRefused, type EngineTokenVerifier, type VerifiedEngineToken } from './engine-token.js';
import { hashPassword } from '../../lib/password-policy.js';

interface Deps {
  verifier: EngineTokenVerifier;
  links: EngineAccountLinkRepository;
  users: Pick<SignInUsers, 'findByEmail'>;
  startSession: AuthService['startSession'];
}

/** A password nobody knows: engine accounts sign in through the engine (or set one by "forgot password"). */
const unusablePasswordHash = () => hashPassword(randomBytes(32).toString('base64url'));

/**
 * Remote-engine sign-in (issue 25): the F-engine's signed JWT becomes a normal Pagewright session
 * (access and refresh token), for the account linked to the engine user. Linking rule
 * (docs/f-engine.md): the stored link of (issuer, subject) wins; on first use the account with the
 * token's e-mail is linked, else one is created, confirmed, for that e-mail. Disabled accounts are
 * refused.
 */
export function createEngineSignInService({ verifier, links, users, startSession }: Deps) {
  async function accountFor({ issuer, claims }: VerifiedEngineToken): Promise<User> {
    const engineUser: EngineSubject = { issuer, subject: claims.sub };
    const linked = await links.findLinkedUser(engineUser);
    if (linked) return linked;
    const existing = await users.findByEmail(claims.email);
    if (existing && !existing.enabled) return existing;
    if (existing?.emailConfirmedAt) return links.linkExistingUser(engineUser, existing.id);
    if (existing) return links.linkUnconfirmedUser(engineUser, existing.id, await unusablePasswordHash());
    return links.createLinkedUser(engineUser, {
      email: claims.email,
      firstName: claims.given_name || claims.email.split('@')[0] || claims.email,
      lastName: claims.family_name ?? '',
      passwordHash: await unusablePasswordHash(),
    });
  }

  return {
    /** Exchanges an engine token for a session; every refused token answers the spec's invalid-token text. */
    async exchange(token: string, log: FastifyBaseLogger): Promise<LoginResponse> {
      let verified: VerifiedEngineToken;
      try {
        verified = await verifier.verify(token);
      } catch (error) {
        if (!(error instanceof EngineTokenRefused)) throw error;
        log.warn({ reason: error.reason }, `remote-engine token refused: ${error.reason}`);
        throw new AppError('UNAUTHORIZED', MESSAGES['error.invalid.token.parameter'], 'token');
      }
      const user = await accountFor(verified);
      if (!user.enabled) {
        log.warn({ userId: user.id }, 'remote-engine token refused: the account is disabled');
        throw new AppError('USER_DISABLED', MESSAGES['login.error.disabled']);
      }
      return startSession(user, { startedByEngine: true });
    },
  };
}
export type EngineSignInService = ReturnType<typeof createEngineSignInService>;
