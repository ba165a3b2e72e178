import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { API_KEY_PREFIX, MESSAGES } from '@pagewright/shared';
import { AppError } from '../lib/app-error.js';
import type { AccessTokens } from '../lib/access-token.js';
import { passwordState } from '../lib/password-policy.js';
import type { SessionCallers } from '../lib/session-callers.js';

/**
 * The caller, as every handler and service sees it: who it is and what its session allows, and
 * nothing more (no password hashes, no tokens). A handler that needs another field of the user
 * loads it through the user repository.
 */
export interface AuthenticatedUser {
  readonly id: string;
  /** The e-mail address, as on sign-in. */
  readonly username: string;
  readonly firstName: string;
  readonly lastName: string;
  /** The refresh-token family this access token was issued for (its sign-in session). */
  readonly familyId: string;
  readonly tempPasswordSet: boolean;
  readonly daysToExpire: number;
  readonly mustChangePassword: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    identify: (
      token: string | undefined,
      allowWhilePasswordChangeRequired: boolean,
    ) => Promise<AuthenticatedUser>;
    /** Whether a sign-in session (refresh-token family) still runs, whatever its access token's age. */
    isSessionLive: (caller: Pick<AuthenticatedUser, 'id' | 'familyId'>) => Promise<boolean>;
  }
  interface FastifyRequest {
    user: AuthenticatedUser;
  }
  interface FastifyContextConfig {
    /** Routes a user may still call while a temporary or expired password must be changed. */
    allowWhilePasswordChangeRequired?: boolean;
  }
}

interface AuthPluginOptions {
  accessTokens: AccessTokens;
  callers: SessionCallers;
}

/** The token of an `Authorization: Bearer …` header. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7) : undefined;
}

/**
 * Bearer-token authentication. The JWT proves who is calling; the session check (the session's
 * family row by primary key, joined to the user's, remembered a few seconds until a change is
 * announced: session-callers.ts) makes an ended session, a disabled account or a pending forced
 * password change take effect at once.
 */
export const authPlugin = fp(async (app: FastifyInstance, { accessTokens, callers }: AuthPluginOptions) => {
  /** The caller behind an access token, under the same rules for HTTP calls and WebSockets. */
  async function identify(
    token: string | undefined,
    allowWhilePasswordChangeRequired: boolean,
  ): Promise<AuthenticatedUser> {
    if (!token) throw new AppError('UNAUTHORIZED', MESSAGES['error.unauthorized']);
    // An API key opens only the public API (/api/v1, plugins/api-key-auth.ts), never a session's calls.
    if (token.startsWith(API_KEY_PREFIX)) throw new AppError('UNAUTHORIZED', MESSAGES['apikey.session.only']);
    const claims = accessTokens.verify(token);
    if (!claims) throw new AppError('SESSION_EXPIRED', MESSAGES['login.error.session.expired']);

    const caller = await callers.find(claims.sub, claims.fid);
    if (!caller) throw new AppError('SESSION_EXPIRED', MESSAGES['login.error.session.expired']);
    if (!caller.enabled) throw new AppError('USER_DISABLED', MESSAGES['login.error.disabled']);

    const state = passwordState(caller, app.config.PASSWORD_EXPIRY_DAYS);
    const { daysToExpire } = state;
    // The engine vouches for a remote-engine session's user, who types no Pagewright password there.
    const mustChangePassword = caller.startedByEngine ? caller.tempPasswordSet : state.mustChangePassword;
    if (mustChangePassword && !allowWhilePasswordChangeRequired) {
      throw new AppError('PASSWORD_CHANGE_REQUIRED', MESSAGES['password.change.required']);
    }
    return {
      id: caller.id,
      username: caller.email,
      firstName: caller.firstName,
      lastName: caller.lastName,
      familyId: claims.fid,
      tempPasswordSet: caller.tempPasswordSet,
      daysToExpire,
      mustChangePassword,
    };
  }

  app.decorateRequest('user', null as unknown as AuthenticatedUser);
  app.decorate('identify', identify);
  app.decorate('isSessionLive', async ({ id, familyId }: Pick<AuthenticatedUser, 'id' | 'familyId'>) => {
    const caller = await callers.find(id, familyId);
    return caller?.enabled === true;
  });
  app.decorate('authenticate', async (request: FastifyRequest) => {
    request.user = await identify(
      bearerToken(request),
      request.routeOptions.config.allowWhilePasswordChangeRequired === true,
    );
  });
});
