import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MESSAGES,
  changePasswordRequestSchema,
  confirmationQuerySchema,
  currentUserResponseSchema,
  emailParamSchema,
  forgotPasswordRequestSchema,
  isEmailValidResponseSchema,
  loginTokenRequestSchema,
  loginTokenResponseSchema,
  messageResponseSchema,
  refreshRequestSchema,
  signUpRequestSchema,
} from '@pagewright/shared';
import { bearerSecurity, errorResponses } from '../../lib/error-responses.js';
import { bearerToken } from '../../plugins/auth.js';
import type { UserService } from './user.service.js';

const errors = errorResponses(400, 401, 403, 404, 409, 422, 429, 503);

/**
 * What the account routes ask of sign-in sessions. The auth module's service does it; app.ts hands
 * it in, as modules never import each other.
 */
interface AccountSessions {
  logout(accessToken: string | undefined, refreshToken: string): Promise<void>;
  issueLoginToken(userId: string, purpose: string): Promise<{ token: string; expiresAt: string }>;
}

/** Sign-up, confirmation, password recovery and change, the signed-in user, logout. */
export const userRoutes: FastifyPluginAsyncZod<{ users: UserService; auth: AccountSessions }> = async (
  app,
  { users, auth },
) => {
  const publicRateLimit = { max: app.config.ACCOUNT_EMAIL_RATE_LIMIT_MAX, timeWindow: 60_000 };
  app.post('/user', {
    config: { rateLimit: publicRateLimit },
    schema: {
      tags: ['user'],
      summary: 'Sign up; sends the confirmation e-mail',
      body: signUpRequestSchema,
      response: { 201: messageResponseSchema, ...errors },
    },
    handler: async (request, reply) => {
      await users.signUp(request.body);
      return reply.status(201).send({ message: MESSAGES['signup.check.email'] });
    },
  });

  app.get('/user/confirmation', {
    schema: {
      tags: ['user'],
      summary: 'Confirm a sign-up with the token from the e-mail; answers the message as plain text',
      querystring: confirmationQuerySchema,
      produces: ['text/plain'],
      // The spec's answer is a plain string (data spec §7), not a JSON object.
      response: { 200: z.string(), ...errors },
    },
    handler: async (request, reply) =>
      reply.type('text/plain; charset=utf-8').send(await users.confirm(request.query.token)),
  });

  app.get('/user/isEmailValid/:email', {
    schema: {
      tags: ['user'],
      summary: 'Whether an e-mail address can be used for a new account',
      params: emailParamSchema,
      response: { 200: isEmailValidResponseSchema, ...errors },
    },
    handler: (request) => users.isEmailAvailable(request.params.email),
  });

  app.put('/user/forgot', {
    config: { rateLimit: publicRateLimit },
    schema: {
      tags: ['user'],
      summary: 'E-mail a temporary password that must be changed at the next sign-in',
      body: forgotPasswordRequestSchema,
      response: { 200: messageResponseSchema, ...errors },
    },
    handler: async (request) => {
      await users.forgotPassword(request.body.username);
      return { message: MESSAGES['forgot.check.email'] };
    },
  });

  app.post('/user/logout', {
    schema: {
      tags: ['user'],
      summary:
        "End the sign-in session of this refresh token (the caller's own; the access token may have expired)",
      security: bearerSecurity,
      body: refreshRequestSchema,
      response: { 200: messageResponseSchema, ...errors },
    },
    handler: async (request) => {
      await auth.logout(bearerToken(request), request.body.refreshToken);
      return { message: 'Logged out' };
    },
  });

  app.get('/user/', {
    onRequest: app.authenticate,
    config: { allowWhilePasswordChangeRequired: true },
    schema: {
      tags: ['user'],
      summary: 'The signed-in user',
      security: bearerSecurity,
      response: { 200: currentUserResponseSchema, ...errors },
    },
    handler: (request) => users.currentUser(request.user),
  });

  app.put('/user/password', {
    onRequest: app.authenticate,
    config: { allowWhilePasswordChangeRequired: true },
    schema: {
      tags: ['user'],
      summary: 'Change the password; other sign-in sessions end',
      security: bearerSecurity,
      body: changePasswordRequestSchema,
      response: { 200: messageResponseSchema, ...errors },
    },
    handler: async (request) => {
      await users.changePassword(request.user.id, request.user.familyId, request.body.password);
      return { message: MESSAGES['password.changed'] };
    },
  });

  app.post('/user/login-token', {
    onRequest: app.authenticate,
    schema: {
      tags: ['user'],
      summary: 'Issue a one-time login token (screen-share executor sign-in)',
      security: bearerSecurity,
      body: loginTokenRequestSchema,
      response: { 200: loginTokenResponseSchema, ...errors },
    },
    handler: (request) => auth.issueLoginToken(request.user.id, request.body.purpose),
  });
};
