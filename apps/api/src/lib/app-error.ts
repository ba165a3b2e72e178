import { API_ERROR_CODES, MESSAGES, type ApiErrorCode } from '@pagewright/shared';

/**
 * The one error type of the API. Services throw it; the error handler (plugins/errors.ts) turns it
 * into `{ message, code, field? }` with the status the code maps to.
 */
export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = API_ERROR_CODES[code];
  }

  static notFound(what: string = MESSAGES['error.not.found']): AppError {
    return new AppError('NOT_FOUND', what);
  }

  static validation(message: string, field?: string): AppError {
    return new AppError('VALIDATION_ERROR', message, field);
  }
}
