import { describe, expect, expectTypeOf, it } from 'vitest';
import { safeParse, type core, type infer as Infer } from './zod-mini.js';
import * as mini from './account-screens.js';
import * as classic from './auth.js';
import { errorResponseSchema, messageResponseSchema } from './common.js';
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH, PERSON_NAME_MAX_LENGTH } from '../constants.js';

/** What a screen sees of a parse: success, the parsed value, every issue's field and text. */
function answer(schema: core.$ZodType, value: unknown) {
  const result = safeParse(schema, value);
  return result.success
    ? { success: true, data: result.data }
    : { success: false, issues: result.error.issues.map(({ path, message }) => ({ path, message })) };
}

const long = (length: number) => 'a'.repeat(length);
const email = (local: string) => `${local}@example.com`;
const GOOD_PASSWORD = 'abcd1234!x';

/** Each twin with the classic schema it mirrors and the values both must answer alike. */
const PAIRS: [string, core.$ZodType, core.$ZodType, unknown[]][] = [
  [
    'loginRequestSchema',
    mini.loginRequestSchema,
    classic.loginRequestSchema,
    [
      { username: 'ana@example.com', password: 'x' },
      { username: '  ', password: '' },
      { username: 'a\u0000b', password: 'x\uD83C' },
      { password: long(PASSWORD_MAX_LENGTH + 1) },
      { username: 7, password: null },
      {},
      'not an object',
    ],
  ],
  [
    'signUpRequestSchema',
    mini.signUpRequestSchema,
    classic.signUpRequestSchema,
    [
      { username: '  ana@example.com ', password: GOOD_PASSWORD, firstName: ' Ana ', lastName: 'Lee' },
      { username: 'ana@', password: 'short', firstName: '', lastName: '  ' },
      { username: email(long(EMAIL_MAX_LENGTH)), password: long(PASSWORD_MAX_LENGTH + 1), firstName: 'A\nB' },
      {
        username: 'ana@example.com',
        password: GOOD_PASSWORD,
        firstName: long(PERSON_NAME_MAX_LENGTH + 1),
        lastName: 'L',
      },
      { username: 'a\u0000@example.com', password: `${GOOD_PASSWORD}\uDFE6`, firstName: 'A', lastName: 'B' },
      { username: 1, password: 2, firstName: 3, lastName: 4 },
      {},
    ],
  ],
  [
    'forgotPasswordRequestSchema',
    mini.forgotPasswordRequestSchema,
    classic.forgotPasswordRequestSchema,
    [{ username: ' ana@example.com' }, { username: 'ana' }, { username: email(long(EMAIL_MAX_LENGTH)) }, {}],
  ],
  [
    'errorResponseSchema',
    mini.errorResponseSchema,
    errorResponseSchema,
    [
      { message: 'm', code: 'C' },
      { message: 'm', code: 'C', field: 'f' },
      { message: 'm' },
      { message: 'm', code: 'C', field: null },
    ],
  ],
  [
    'messageResponseSchema',
    mini.messageResponseSchema,
    messageResponseSchema,
    [{ message: 'm' }, { message: 1 }, 'm'],
  ],
  [
    'loginResponseSchema',
    mini.loginResponseSchema,
    classic.loginResponseSchema,
    [
      {
        accessToken: 'a',
        refreshToken: 'r',
        username: 'u',
        tempPasswordSet: false,
        enabled: true,
        daysToExpire: 3,
        viewerEmail: null,
      },
      {
        accessToken: 'a',
        refreshToken: 'r',
        username: 'u',
        tempPasswordSet: false,
        enabled: true,
        daysToExpire: 3.5,
        viewerEmail: 'v',
      },
      {
        accessToken: 'a',
        refreshToken: 'r',
        username: 'u',
        tempPasswordSet: false,
        enabled: true,
        daysToExpire: 3,
      },
    ],
  ],
  [
    'refreshResponseSchema',
    mini.refreshResponseSchema,
    classic.refreshResponseSchema,
    [
      { accessToken: 'a', refreshToken: 'r', username: 'u' },
      { accessToken: 'a', refreshToken: 'r' },
    ],
  ],
  [
    'isEmailValidResponseSchema',
    mini.isEmailValidResponseSchema,
    classic.isEmailValidResponseSchema,
    [true, 'true'],
  ],
  [
    'currentUserResponseSchema',
    mini.currentUserResponseSchema,
    classic.currentUserResponseSchema,
    [
      { id: 'i', username: 'u', firstName: 'f', lastName: 'l', tempPasswordSet: true, daysToExpire: 0 },
      { id: 'i', username: 'u', firstName: 'f', lastName: 'l', tempPasswordSet: true, daysToExpire: '0' },
    ],
  ],
];

describe('account-screens contracts (zod/mini twins)', () => {
  it.each(PAIRS)('%s answers every value as its classic twin does', (_name, twin, original, values) => {
    for (const value of values)
      expect(answer(twin, value), JSON.stringify(value)).toEqual(answer(original, value));
  });

  it('twins every schema it exports, with the same types', () => {
    expect(Object.keys(mini).sort()).toEqual(PAIRS.map(([name]) => name).sort());
    expectTypeOf<Infer<typeof mini.loginRequestSchema>>().toEqualTypeOf<classic.LoginRequest>();
    expectTypeOf<Infer<typeof mini.signUpRequestSchema>>().toEqualTypeOf<classic.SignUpRequest>();
    expectTypeOf<Infer<typeof mini.loginResponseSchema>>().toEqualTypeOf<classic.LoginResponse>();
    expectTypeOf<Infer<typeof mini.currentUserResponseSchema>>().toEqualTypeOf<classic.CurrentUserResponse>();
  });
});
