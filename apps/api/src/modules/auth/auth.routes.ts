import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  engineTokenExchangeRequestSchema,
  loginRequestSchema,
  loginResponseSchema,
  refreshRequestSchema,
  refreshResponseSchema,
  tokenParamSchema,
} from '@pagewright/shared';
import { errorResponses } from '../../lib/error-responses.js';
import type { AuthService } from './auth.service.js';
import type { EngineSignInService } from './engine-sign-in.service.js';

const errors = errorResponses(400, 401, 403, 429);

/**
 * POST /auth (sign in), PUT /auth (refresh with rotation), POST /auth/login-token/:token,
 * POST /auth/fengine/exchange (remote-engine sign-in).
 */
export const authRoutes: FastifyPluginAsyncZod<{
  auth: AuthService;
  engineSignIn: EngineSignInService;
}> = async (app, { auth, engineSignIn }) => {
  const loginRateLimit = {
    // After body parsing: the key includes the account being signed in to.
    hook: 'preHandler' as const,
    max: app.config.LOGIN_RATE_LIMIT_MAX,
    timeWindow: app.config.LOGIN_RATE_LIMIT_WINDOW_SECONDS * 1000,
    // Per address and account, so one noisy client cannot lock everybody else out. The ceiling on
    // an address's failures across accounts (password spraying) is the auth service's.
    keyGenerator: (request: { ip: string; body?: unknown }) => {
      const username = (request.body as { username?: unknown } | undefined)?.username;
      return `login:${request.ip}:${typeof username === 'string' ? username.trim().toLowerCase() : ''}`;
    },
  };

  app.post('/auth', {
    config: { rateLimit: loginRateLimit },
    schema: {
      tags: ['auth'],
      summary: 'Sign in with e-mail and password',
      body: loginRequestSchema,
      response: { 200: loginResponseSchema, ...errors },
    },
    handler: (request) => auth.login(request.body.username, request.body.password, request.ip),
  });

  app.put('/auth', {
    schema: {
      tags: ['auth'],
      summary: 'Exchange a refresh token for new tokens (the old one stops working)',
      body: refreshRequestSchema,
      response: { 200: refreshResponseSchema, ...errors },
    },
    handler: (request) => auth.refresh(request.body.refreshToken),
  });

  app.post('/auth/login-token/:token', {
    config: { rateLimit: { max: 30, timeWindow: 60_000 } },
    schema: {
      tags: ['auth'],
      summary: 'Sign in with a one-time login token',
      params: tokenParamSchema,
      response: { 200: loginResponseSchema, ...errors },
    },
    handler: (request) => auth.loginWithToken(request.params.token),
  });

  app.post('/auth/fengine/exchange', {
    // As many tries per address as a sign-in to one account: guessing at signatures gets nowhere.
    config: {
      rateLimit: {
        max: app.config.LOGIN_RATE_LIMIT_MAX,
        timeWindow: app.config.LOGIN_RATE_LIMIT_WINDOW_SECONDS * 1000,
        keyGenerator: (request: { ip: string }) => `fengine-exchange:${request.ip}`,
      },
    },
    schema: {
      tags: ['auth'],
      summary: 'Sign in with a token the F-engine signed (remote-engine mode)',
      body: engineTokenExchangeRequestSchema,
      response: { 200: loginResponseSchema, ...errors },
    },
    handler: (request) => engineSignIn.exchange(request.body.token, request.log),
  });
};
