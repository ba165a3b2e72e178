import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_DIGITS,
  PASSWORD_MIN_LENGTH,
  PASSWORD_MIN_LETTERS,
} from './constants.js';

/** "Standard e-mail pattern" of the account screens. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Navigator viewer e-mail: text, @, letters, dot, 2 to 3 letters (automation spec §5). */
export const VIEWER_EMAIL_PATTERN = /^[^\s@]+@[A-Za-z]+(\.[A-Za-z]+)*\.[A-Za-z]{2,3}$/;

/** A UTF-16 surrogate without its pair: a pair (an emoji) is one code point in a `u` regex. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Whether a string can be stored and shown as sent: no NUL (PostgreSQL text and jsonb cannot hold
 * it) and no lone surrogate (not a character; it would be stored as U+FFFD, silently changed).
 */
export function isSafeText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

/** Line breaks: CR, LF, vertical tab, form feed, NEL and the Unicode line and paragraph separators. */
const LINE_BREAK = /[\n\v\f\r\u0085\u2028\u2029]/u;

/**
 * Whether a single-line field (a name, a subject) is one line: a line break in it would split a
 * CSV row, an e-mail header or a list cell, and shows nowhere as typed.
 */
export function isOneLine(value: string): boolean {
  return !LINE_BREAK.test(value);
}

/** Control characters (C0, DEL, C1): never part of a file name a user gave. */
const CONTROL_CHARACTER = /\p{Cc}/u;

/**
 * Whether a name a user gives holds no control character (tab, escape, NUL, CR/LF...): it shows
 * nowhere as typed, and an escape or a line break in a log line or a CSV cell is an injection.
 */
export function hasNoControlCharacter(value: string): boolean {
  return !CONTROL_CHARACTER.test(value);
}

/** Whether an uploaded file's name holds no control character (NUL, line breaks, escapes). */
export function isCleanFileName(name: string): boolean {
  return !CONTROL_CHARACTER.test(name);
}

/**
 * The sign-up/change-password rule (data spec §5): at least 9 characters, 4 letters, 4 digits,
 * one special (non-word) character, no white space and no plus sign. Control and other invisible
 * characters (\p{C}: NUL, format, surrogates) are not the special character, and no password is
 * longer than PASSWORD_MAX_LENGTH.
 */
export function isPasswordValid(password: string): boolean {
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) return false;
  if (/\s/.test(password) || password.includes('+')) return false;
  const letters = password.match(/[A-Za-z]/g)?.length ?? 0;
  const digits = password.match(/[0-9]/g)?.length ?? 0;
  const hasSpecial = /[^A-Za-z0-9_\p{C}]/u.test(password);
  return letters >= PASSWORD_MIN_LETTERS && digits >= PASSWORD_MIN_DIGITS && hasSpecial;
}

export function isBlank(value: string | null | undefined): boolean {
  return value === null || value === undefined || value.trim().length === 0;
}
