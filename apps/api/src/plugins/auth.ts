import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { User } from '@pagewright/db';
import { MESSAGES } from '@pagewright/shared';
import { AppError } from '../lib/app-error.js';
import type { AccessTokens } from '../modules/auth/access-token.js';
import { passwordState } from '../modules/auth/password-policy.js';
import type { UserRepository } from '../modules/user/user.repository.js';

export interface AuthenticatedUser {
  id: string;
  username: string;
  /** The refresh-token family this access token was issued for (its sign-in session). */
  familyId: string;
  mustChangePassword: boolean;
  /** The user's row as read for this request, so handlers need not read it again. */
  account: User;
}

declare module 'fastify' {
  interface FastifyInstance {
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    identify: (
      token: string | undefined,
      allowWhilePasswordChangeRequired: boolean,
    ) => Promise<AuthenticatedUser>;
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
  users: UserRepository;
}

/**
 * Bearer-token authentication. The JWT proves who is calling; the user's row is read on every call
 * so that a disabled account or a pending forced password change takes effect at once.
 */
export const authPlugin = fp(async (app: FastifyInstance, { accessTokens, users }: AuthPluginOptions) => {
  /** The caller behind an access token, under the same rules for HTTP calls and WebSockets. */
  async function identify(token: string | undefined, allowWhilePasswordChangeRequired: boolean) {
    if (!token) throw new AppError('UNAUTHORIZED', MESSAGES['error.unauthorized']);
    const claims = accessTokens.verify(token);
    if (!claims) throw new AppError('SESSION_EXPIRED', MESSAGES['login.error.session.expired']);

    const user = await users.findById(claims.sub);
    if (!user) throw new AppError('SESSION_EXPIRED', MESSAGES['login.error.session.expired']);
    if (!user.enabled) throw new AppError('USER_DISABLED', MESSAGES['login.error.disabled']);

    const { mustChangePassword } = passwordState(user, app.config.PASSWORD_EXPIRY_DAYS);
    if (mustChangePassword && !allowWhilePasswordChangeRequired) {
      throw new AppError('PASSWORD_CHANGE_REQUIRED', MESSAGES['password.change.required']);
    }
    const identified: AuthenticatedUser = {
      id: user.id,
      username: user.email,
      familyId: claims.fid,
      mustChangePassword,
      account: user,
    };
    return identified;
  }

  app.decorateRequest('user', null as unknown as AuthenticatedUser);
  app.decorate('identify', identify);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7) : undefined;
    request.user = await identify(
      token,
      request.routeOptions.config.allowWhilePasswordChangeRequired === true,
    );
  });
});
