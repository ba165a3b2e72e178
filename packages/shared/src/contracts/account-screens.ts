/**
 * The contracts of the account screens (sign-in, sign-up, forgot password) and of the API client
 * under them, in zod/mini: these screens are the SPA's first download, and zod's classic API brings
 * all its methods with the first schema. Each schema here is the twin of the one of the same name
 * in `auth.ts` or `common.ts`, built from the same texts, limits and rules; the API and every
 * other screen use those. `account-screens.test.ts` holds each pair to the same answers.
 */
import * as z from './zod-mini.js';
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH, PERSON_NAME_MAX_LENGTH } from '../constants.js';
import { MESSAGES } from '../messages.js';
import { EMAIL_PATTERN, isBlank, isOneLine, isPasswordValid } from '../validation.js';

const emailField = z
  .string({ error: MESSAGES['signup.email.invalid'] })
  .check(
    z.trim(),
    z.maxLength(EMAIL_MAX_LENGTH, MESSAGES['signup.email.invalid']),
    z.regex(EMAIL_PATTERN, MESSAGES['signup.email.invalid']),
  );

const passwordLengthCap = { message: MESSAGES['password.too.long'], abort: true } as const;

const personName = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .check(
      z.trim(),
      z.minLength(1, requiredMessage),
      z.maxLength(PERSON_NAME_MAX_LENGTH),
      z.refine(isOneLine, MESSAGES['error.name.line.break']),
    );

/** POST /auth */
export const loginRequestSchema = z.object({
  username: z
    .string({ error: MESSAGES['login.email.required'] })
    .check(z.refine((v) => !isBlank(v), MESSAGES['login.email.required'])),
  password: z.string({ error: MESSAGES['login.password.required'] }).check(
    z.maxLength(PASSWORD_MAX_LENGTH, passwordLengthCap),
    z.refine((v) => v.length > 0, MESSAGES['login.password.required']),
  ),
});

/** POST /user (sign-up) */
export const signUpRequestSchema = z.object({
  username: emailField,
  password: z
    .string({ error: MESSAGES['signup.password.rule'] })
    .check(
      z.maxLength(PASSWORD_MAX_LENGTH, passwordLengthCap),
      z.refine(isPasswordValid, MESSAGES['signup.password.rule']),
    ),
  firstName: personName(MESSAGES['signup.first.name.required']),
  lastName: personName(MESSAGES['signup.last.name.required']),
});

/** PUT /user/forgot */
export const forgotPasswordRequestSchema = z.object({ username: emailField });

/** The one error body of the API: `{ message, code, field? }`. */
export const errorResponseSchema = z.object({
  message: z.string(),
  code: z.string(),
  field: z.optional(z.string()),
});

export const messageResponseSchema = z.object({ message: z.string() });

/** Answer of POST /auth, POST /auth/login-token/:token and POST /auth/fengine/exchange. */
export const loginResponseSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  username: z.string(),
  tempPasswordSet: z.boolean(),
  enabled: z.boolean(),
  daysToExpire: z.number().check(z.int()),
  viewerEmail: z.nullable(z.string()),
});

/** PUT /auth */
export const refreshResponseSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  username: z.string(),
});

/** GET /user/isEmailValid/:email: true means the address is free to use. */
export const isEmailValidResponseSchema = z.boolean();

/** GET /user/ (completing a sign-in reads who signed in) */
export const currentUserResponseSchema = z.object({
  id: z.string(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  tempPasswordSet: z.boolean(),
  daysToExpire: z.number().check(z.int()),
});
