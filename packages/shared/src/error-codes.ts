/**
 * API error codes (the `code` of every error body) and the browser-automation error table
 * (100000 + WebDriver JSON-wire status, see shared/notes/error-codes.md).
 */
export const API_ERROR_CODES = {
  VALIDATION_ERROR: 400,
  PASSWORD_NOT_VALID: 400,
  EMAIL_NOT_FOUND: 400,
  INVALID_CREDENTIALS: 401,
  INVALID_TOKEN: 400,
  SESSION_EXPIRED: 401,
  UNAUTHORIZED: 401,
  EMAIL_NOT_CONFIRMED: 403,
  USER_DISABLED: 403,
  PASSWORD_CHANGE_REQUIRED: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  /** The live browser of a builder is gone; the next call opens a new one. */
  SESSION_LOST: 409,
  EMAIL_EXISTS: 409,
  NAME_EXISTS: 409,
  UNPROCESSABLE: 422,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;
export type ApiErrorCode = keyof typeof API_ERROR_CODES;

export const AUTOMATION_ERROR_BASE = 100000;
export const AUTOMATION_ERRORS: Readonly<Record<number, string>> = {
  100000: 'Success',
  100001: 'Index Out Of Bounds',
  100002: 'No Collection',
  100003: 'No String',
  100004: 'No String Length',
  100005: 'No String Wrapper',
  100006: 'No Such Session',
  100007: 'No Such Element',
  100008: 'No Such Frame',
  100009: 'Unknown Command',
  100010: 'Stale Element Reference',
  100011: 'Element Not Visible',
  100012: 'Invalid Element State',
  100013: 'Unknown Error',
  100014: 'Expected',
  100015: 'Element Not Selectable',
  100016: 'No Such Document',
  100017: 'JavaScript Error',
  100018: 'No Script Result',
  100019: 'XPath Lookup Error',
  100020: 'No Such Collection',
  100021: 'Timeout',
  100022: 'Null Pointer',
  100023: 'No Such Window',
  100024: 'Invalid Cookie Domain',
  100025: 'Unable To Set Cookie',
  100026: 'Unexpected Alert Open',
  100027: 'No Alert Open',
  100028: 'Script Timeout',
  100029: 'Invalid Element Coordinates',
  100030: 'IME Not Available',
  100031: 'IME Engine Activation Failed',
  100032: 'Invalid Selector',
  100033: 'Session Not Created',
  100034: 'Move Target Out Of Bounds',
  100035: 'SQL Database Error',
  100051: 'Invalid XPath Selector',
  100052: 'Invalid XPath Selector Return Type',
  100060: 'Element Not Interactable',
  100061: 'Invalid Argument',
  100062: 'No Such Cookie',
  100063: 'Unable To Capture Screen',
  100064: 'Element Click Intercepted',
  100405: 'Method Not Allowed',
};

/** Every code in 100000–100064 has a name; gaps in the old table read "Unknown Error". */
export function automationErrorName(code: number): string {
  return AUTOMATION_ERRORS[code] ?? 'Unknown Error';
}

/**
 * How every screen words an automation failure, the builder's Error dialog and cards, the run
 * results and the dashboard's notice alike: "Element Click Intercepted (100064): …". A message
 * without an automation code (a stopped worker, an expired ask) is shown as it is.
 */
export function automationErrorText(code: number | null | undefined, message: string): string {
  if (!code || code < AUTOMATION_ERROR_BASE) return message;
  return `${automationErrorName(code)} (${code}): ${message}`;
}
