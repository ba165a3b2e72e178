import { describe, expect, it } from 'vitest';
import {
  EMAIL_PATTERN,
  VIEWER_EMAIL_PATTERN,
  isCleanFileName,
  isOneLine,
  isPasswordValid,
  isSafeText,
} from './validation.js';
import { PASSWORD_MAX_LENGTH } from './constants.js';
import { startExtractorRequestSchema } from './contracts/extractor.js';
import { automationErrorName } from './error-codes.js';
import { formatMessage } from './messages.js';

describe('password rule', () => {
  it.each(['abcd1234!', 'Pass1234word#', 'a1b2c3d4$$'])('accepts %s', (p) =>
    expect(isPasswordValid(p)).toBe(true),
  );
  it.each([
    ['abc1234!', 'too short'],
    ['abcdefgh!1', 'one digit'],
    ['abc123456!', 'three letters'],
    ['abcd12345', 'no special'],
    ['abcd_12345', 'underscore is a word character'],
    ['abcd 1234!', 'white space'],
    ['abcd1234+!', 'plus sign'],
    ['abcd1234\u0000', 'NUL is not a special character'],
    ['abcd1234\u200b', 'a zero-width space is not a special character'],
    [`abcd1234!${'x'.repeat(PASSWORD_MAX_LENGTH)}`, 'over the length cap'],
  ])('refuses %s (%s)', (p) => expect(isPasswordValid(p)).toBe(false));
});

describe('safe text', () => {
  it('refuses NUL and lone surrogates, keeps pairs and other characters', () => {
    expect(isSafeText('plain, accentué, 银行, 🏦\ttab\nline')).toBe(true);
    expect(isSafeText('a\u0000b')).toBe(false);
    expect(isSafeText('\uD83C')).toBe(false);
    expect(isSafeText('x\uDFE6')).toBe(false);
    expect(isSafeText('\uDFE6\uD83C')).toBe(false);
  });

  it('holds for every string of the contracts, naming the field', () => {
    const result = startExtractorRequestSchema.safeParse({ name: 'Bank\u0000', description: 'ok' });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        path: ['name'],
        message: 'This field contains characters that are not allowed.',
      }),
    ]);
  });
});

describe('e-mail patterns', () => {
  it('standard pattern', () => {
    expect(EMAIL_PATTERN.test('ann@example.com')).toBe(true);
    expect(EMAIL_PATTERN.test('ann@example')).toBe(false);
    expect(EMAIL_PATTERN.test('ann example@x.com')).toBe(false);
  });
  it('viewer pattern wants letters, a dot and 2 to 3 letters at the end', () => {
    expect(VIEWER_EMAIL_PATTERN.test('viewer@bank.com')).toBe(true);
    expect(VIEWER_EMAIL_PATTERN.test('viewer@bank.co.uk')).toBe(true);
    expect(VIEWER_EMAIL_PATTERN.test('viewer@bank.info')).toBe(false);
    expect(VIEWER_EMAIL_PATTERN.test('viewer@bank1.com')).toBe(false);
  });
});

describe('texts and codes', () => {
  it('fills placeholders', () => {
    expect(formatMessage('login.warning.password.expiring', { days: 3 })).toBe(
      'Your password will expire in 3 days',
    );
  });
  it('names every automation code, gaps as Unknown Error', () => {
    expect(automationErrorName(100007)).toBe('No Such Element');
    expect(automationErrorName(100021)).toBe('Timeout');
    expect(automationErrorName(100405)).toBe('Method Not Allowed');
    expect(automationErrorName(100040)).toBe('Unknown Error');
  });
});

describe('single-line fields and file names', () => {
  it.each(['Bank statements', 'Relevé 银行 🏦', 'tab\tinside'])('takes %j as one line', (value) =>
    expect(isOneLine(value)).toBe(true),
  );
  it.each(['a\nb', 'a\r\nb', 'a\rb', 'a\u000bb', 'a\u000cb', 'a\u0085b', 'a\u2028b', 'a\u2029b'])(
    'refuses the line break in %j',
    (value) => expect(isOneLine(value)).toBe(false),
  );
  it('refuses a file name with any control character, keeps every other name', () => {
    expect(isCleanFileName('Relevé mai 2026 (copy).pdf')).toBe(true);
    for (const control of ['\u0000', '\t', '\n', '\r', '\u001b', '\u007f', '\u009b'])
      expect(isCleanFileName(`a${control}b.pdf`), JSON.stringify(control)).toBe(false);
  });
});
