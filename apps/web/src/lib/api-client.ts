import { safeParse, type core } from 'zod/mini';
import { errorResponseSchema, refreshResponseSchema } from '@pagewright/shared/account-screens';
import { i18n } from './i18n-core';
import { beginLoading, endLoading } from './loading';
import { navigateTo } from './navigation';
import { NEED_PASSWORD_PATH, PATHS, SESSION_EXPIRED_PATH } from './paths';
import { expireSession, getSession, setTempPasswordSet, storeRefreshedTokens } from './session';

const API_BASE = '/api';
/** A 403 PASSWORD_CHANGE_REQUIRED sends the user to settings unless a change-password form already shows. */
const PASSWORD_FORM_PATHS: readonly string[] = [PATHS.dashboard, PATHS.settings];

/** Every failed call rejects with this: the API's `{ message, code, field? }` plus the status. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly field: string | null;
  /** True when the text came from the server's error body (and so may be shown as is). */
  readonly hasServerMessage: boolean;

  constructor(init: {
    status: number;
    message: string;
    code?: string | null;
    field?: string | null;
    hasServerMessage: boolean;
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code ?? null;
    this.field = init.field ?? null;
    this.hasServerMessage = init.hasServerMessage;
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface ApiRequestOptions<T> {
  method?: HttpMethod;
  body?: unknown;
  /**
   * Validates the answer; the shared contract schemas are used end to end. Classic and zod/mini
   * schemas both fit (the account screens use zod/mini twins to keep the first download small).
   */
  schema?: core.$ZodType<T>;
  /** Quiet calls (background loads) do not show the full-screen overlay. */
  quiet?: boolean;
  /** Account calls (sign-in, sign-up, confirmation...): no bearer header and no refresh on a 401. */
  anonymous?: boolean;
  /** Sends the bearer header but never refreshes (logout must not start a refresh). */
  skipRefresh?: boolean;
  signal?: AbortSignal;
  /** Extra headers (a message link's token on the message viewer). */
  headers?: Record<string, string>;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function toApiError(response: Response): Promise<ApiError> {
  const parsed = safeParse(errorResponseSchema, await readJson(response));
  if (parsed.success) {
    const { message, code, field } = parsed.data;
    return new ApiError({ status: response.status, message, code, field, hasServerMessage: true });
  }
  return new ApiError({
    status: response.status,
    message: response.statusText || `HTTP ${response.status}`,
    hasServerMessage: false,
  });
}

function networkError(error: unknown): ApiError {
  const message = error instanceof Error ? error.message : String(error);
  return new ApiError({ status: 0, message, code: 'NETWORK_ERROR', hasServerMessage: false });
}

function send(
  path: string,
  options: ApiRequestOptions<unknown>,
  accessToken: string | null,
): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  // A form (file uploads) sets its own multipart content type with the boundary.
  const isForm = options.body instanceof FormData;
  if (options.body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
  if (!options.anonymous && accessToken) headers.Authorization = `Bearer ${accessToken}`;
  return fetch(`${API_BASE}${path}`, {
    method: options.method ?? 'GET',
    headers,
    body:
      options.body === undefined
        ? undefined
        : isForm
          ? (options.body as FormData)
          : JSON.stringify(options.body),
    signal: options.signal,
  });
}

/**
 * What a refresh attempt ended with. Only a refusal by the API ends the session: a refresh that
 * never got an answer (network down, or the page being left mid-request) leaves the stored tokens
 * alone, since the session may well still be alive.
 */
type RefreshOutcome = 'refreshed' | 'refused' | 'unreachable';

let refreshInFlight: Promise<RefreshOutcome> | null = null;

async function requestNewTokens(): Promise<RefreshOutcome> {
  const { refreshToken } = getSession();
  if (!refreshToken) return 'refused';
  let response: Response;
  try {
    response = await send('/auth', { method: 'PUT', body: { refreshToken }, anonymous: true }, null);
  } catch {
    return 'unreachable';
  }
  if (response.status >= 500) return 'unreachable';
  if (!response.ok) return 'refused';
  const parsed = safeParse(refreshResponseSchema, await readJson(response).catch(() => undefined));
  if (!parsed.success) return 'unreachable';
  storeRefreshedTokens(parsed.data);
  return 'refreshed';
}

/** Concurrent 401s share one refresh: a rotated refresh token can only be used once. */
function refreshSession(): Promise<RefreshOutcome> {
  refreshInFlight ??= requestNewTokens().finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

function mayRefresh(options: ApiRequestOptions<unknown>, error: ApiError): boolean {
  return (
    error.status === 401 &&
    error.code !== 'INVALID_CREDENTIALS' &&
    !options.anonymous &&
    !options.skipRefresh &&
    window.location.pathname !== PATHS.login &&
    getSession().refreshToken !== null
  );
}

function onPasswordChangeRequired(): void {
  setTempPasswordSet(true);
  if (!PASSWORD_FORM_PATHS.includes(window.location.pathname)) void navigateTo(NEED_PASSWORD_PATH);
}

async function execute(path: string, options: ApiRequestOptions<unknown>): Promise<Response> {
  const sentWith = getSession().accessToken;
  let response = await send(path, options, sentWith);
  if (response.ok) return response;

  let error = await toApiError(response);
  if (mayRefresh(options, error)) {
    // A call that left before another one refreshed only needs the new token, not a second refresh.
    const current = getSession().accessToken;
    const outcome = current !== null && current !== sentWith ? 'refreshed' : await refreshSession();
    if (outcome === 'refused') {
      expireSession();
      void navigateTo(SESSION_EXPIRED_PATH, { replace: true });
      throw error;
    }
    if (outcome === 'unreachable') throw error;
    response = await send(path, options, getSession().accessToken);
    if (response.ok) return response;
    error = await toApiError(response);
  }
  if (error.status === 403 && error.code === 'PASSWORD_CHANGE_REQUIRED') onPasswordChangeRequired();
  throw error;
}

/** The one way the SPA talks to the API (`/api` on the same origin; proxied by Vite in dev). */
export async function apiRequest<T = unknown>(path: string, options: ApiRequestOptions<T> = {}): Promise<T> {
  if (!options.quiet) beginLoading();
  try {
    let response: Response;
    try {
      response = await execute(path, options);
    } catch (error) {
      throw error instanceof ApiError ? error : networkError(error);
    }
    const data = await readJson(response);
    if (!options.schema) return data as T;
    return parseAnswer(options.schema, data, response.status);
  } finally {
    if (!options.quiet) endLoading();
  }
}

/**
 * An answer read through its contract, or the error a call with that schema would have thrown: for
 * an answer requested before its schema was loaded (the router's early GET /user/settings).
 */
export function parseAnswer<T>(schema: core.$ZodType<T>, data: unknown, status = 200): T {
  const parsed = safeParse(schema, data);
  if (!parsed.success) {
    throw new ApiError({
      status,
      message: 'Unexpected answer from the server',
      code: 'INVALID_RESPONSE',
      hasServerMessage: false,
    });
  }
  return parsed.data;
}

/**
 * A streamed answer (the builder's validation lines): the same bearer header, refresh-and-retry and
 * error mapping as apiRequest, but the body is left unread for the caller. Never raises the overlay:
 * streams show their own progress.
 */
export async function apiStream(
  path: string,
  options: Pick<ApiRequestOptions<unknown>, 'method' | 'signal'> = {},
): Promise<ReadableStream<Uint8Array>> {
  let response: Response;
  try {
    response = await execute(path, { ...options, quiet: true });
  } catch (error) {
    throw error instanceof ApiError ? error : networkError(error);
  }
  if (!response.body) throw networkError(new Error('The answer has no body'));
  return response.body;
}

/**
 * A binary or plain-text answer (a run's files, screenshots and HTML): the same bearer header,
 * refresh-and-retry and error mapping as apiRequest, the body left for the caller to read. Never
 * raises the overlay: the caller shows its own progress.
 */
export async function apiFetch(
  path: string,
  options: Pick<ApiRequestOptions<unknown>, 'signal' | 'headers'> = {},
): Promise<Response> {
  try {
    return await execute(path, { ...options, quiet: true });
  } catch (error) {
    throw error instanceof ApiError ? error : networkError(error);
  }
}

/** The text to show for a failed call: the server's own message, else the spec's unknown-error text. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError && error.hasServerMessage) return error.message;
  const errorMessage = error instanceof Error ? error.message : String(error);
  return i18n.t('error.unknown', { errorMessage });
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}
