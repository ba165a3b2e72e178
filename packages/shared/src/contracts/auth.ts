import * as z from './zod.js';
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH, PERSON_NAME_MAX_LENGTH } from '../constants.js';
import { MESSAGES } from '../messages.js';
import { EMAIL_PATTERN, isBlank, isOneLine, isPasswordValid } from '../validation.js';

const emailField = z
  .string({ error: MESSAGES['signup.email.invalid'] })
  .trim()
  .max(EMAIL_MAX_LENGTH, MESSAGES['signup.email.invalid'])
  .regex(EMAIL_PATTERN, MESSAGES['signup.email.invalid']);

/** Checked before anything else reads a password: hashing a huge one is a cheap denial of service. */
const passwordLengthCap = {
  message: MESSAGES['password.too.long'],
  abort: true,
} as const;

const passwordRule = z
  .string({ error: MESSAGES['signup.password.rule'] })
  .max(PASSWORD_MAX_LENGTH, passwordLengthCap)
  .refine(isPasswordValid, MESSAGES['signup.password.rule']);

/** POST /auth */
export const loginRequestSchema = z.object({
  username: z
    .string({ error: MESSAGES['login.email.required'] })
    .refine((v) => !isBlank(v), MESSAGES['login.email.required']),
  password: z
    .string({ error: MESSAGES['login.password.required'] })
    .max(PASSWORD_MAX_LENGTH, passwordLengthCap)
    .refine((v) => v.length > 0, MESSAGES['login.password.required']),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** Answer of POST /auth and POST /auth/login-token/:token (data spec §3 "Login response"). */
export const loginResponseSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  username: z.string(),
  tempPasswordSet: z.boolean(),
  enabled: z.boolean(),
  daysToExpire: z.number().int(),
  viewerEmail: z.string().nullable(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** PUT /auth and POST /user/logout */
export const refreshRequestSchema = z.object({
  refreshToken: z.string().min(1, MESSAGES['login.error.invalid.token']),
});
export type RefreshRequest = z.infer<typeof refreshRequestSchema>;

export const refreshResponseSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  username: z.string(),
});
export type RefreshResponse = z.infer<typeof refreshResponseSchema>;

export const tokenParamSchema = z.object({ token: z.string().min(1).max(512) });

/** The longest F-engine token accepted: a signed JWT with a few claims is well under it. */
export const ENGINE_TOKEN_MAX_LENGTH = 8192;

/**
 * POST /auth/fengine/exchange (remote-engine mode): a JWT the F-engine signed. Its shape, signature
 * and claims are the service's to check, so every bad token gets the same 401.
 */
export const engineTokenExchangeRequestSchema = z.object({
  token: z
    .string({ error: MESSAGES['error.invalid.token.parameter'] })
    .max(ENGINE_TOKEN_MAX_LENGTH, MESSAGES['error.invalid.token.parameter']),
});
export type EngineTokenExchangeRequest = z.infer<typeof engineTokenExchangeRequestSchema>;

const engineNameClaim = z.string().trim().max(PERSON_NAME_MAX_LENGTH).refine(isOneLine).optional();

/**
 * The claims an F-engine token must carry beyond iss, aud and exp (checked when it is verified):
 * the engine's user id, that user's e-mail address, and optionally the names a new account gets.
 */
export const engineTokenClaimsSchema = z.object({
  sub: z.string().trim().min(1).max(255),
  email: z.string().trim().max(EMAIL_MAX_LENGTH).regex(EMAIL_PATTERN),
  given_name: engineNameClaim,
  family_name: engineNameClaim,
});
export type EngineTokenClaims = z.infer<typeof engineTokenClaimsSchema>;

/** POST /user (sign-up). `username` is the e-mail address, as on login. */
export const signUpRequestSchema = z.object({
  username: emailField,
  password: passwordRule,
  firstName: z
    .string({ error: MESSAGES['signup.first.name.required'] })
    .trim()
    .min(1, MESSAGES['signup.first.name.required'])
    .max(PERSON_NAME_MAX_LENGTH)
    .refine(isOneLine, MESSAGES['error.name.line.break']),
  lastName: z
    .string({ error: MESSAGES['signup.last.name.required'] })
    .trim()
    .min(1, MESSAGES['signup.last.name.required'])
    .max(PERSON_NAME_MAX_LENGTH)
    .refine(isOneLine, MESSAGES['error.name.line.break']),
});
export type SignUpRequest = z.infer<typeof signUpRequestSchema>;

/** GET /user/confirmation?token= */
export const confirmationQuerySchema = z.object({ token: z.string().min(1).max(512) });

/** GET /user/isEmailValid/:email: true means the address is free to use. */
export const emailParamSchema = z.object({ email: z.string().max(EMAIL_MAX_LENGTH) });
export const isEmailValidResponseSchema = z.boolean();

/** PUT /user/forgot */
export const forgotPasswordRequestSchema = z.object({ username: emailField });
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequestSchema>;

/** PUT /user/password: the new password, typed twice on the screen and sent once. */
export const changePasswordRequestSchema = z.object({
  password: z.string({ error: MESSAGES['password.not.valid'] }).max(PASSWORD_MAX_LENGTH, passwordLengthCap),
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

/** GET /user/ */
export const currentUserResponseSchema = z.object({
  id: z.string(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  tempPasswordSet: z.boolean(),
  daysToExpire: z.number().int(),
});
export type CurrentUserResponse = z.infer<typeof currentUserResponseSchema>;

export const LOGIN_TOKEN_PURPOSES = ['screen-share-executor'] as const;
export const loginTokenRequestSchema = z.object({
  purpose: z.enum(LOGIN_TOKEN_PURPOSES).default('screen-share-executor'),
});

/** POST /user/login-token: a one-time token for /auth/login-token/:token (screen-share executor). */
export const loginTokenResponseSchema = z.object({ token: z.string(), expiresAt: z.string() });
export type LoginTokenResponse = z.infer<typeof loginTokenResponseSchema>;
