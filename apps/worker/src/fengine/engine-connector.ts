import type { z } from 'zod';
import {
  ENGINE_CALLS,
  ENGINE_INVESTORS_MAX,
  ENGINE_INVESTORS_PAGE_SIZE_MAX,
  ENGINE_MESSAGES,
  ENGINE_PATHS,
  type EngineCall,
  type EngineEntity,
  type EngineImportResponse,
  type EngineImportRow,
  type EngineInvestorSections,
  type EngineInvestorsPage,
  type Investor,
  engineErrorBodySchema,
  engineImportResponseSchema,
  engineInvestorSectionsSchema,
  engineInvestorsPageSchema,
  engineSignInResponseSchema,
} from '@pagewright/shared';

/**
 * The F-engine connector (packages/shared/src/contracts/fengine.ts, docs/f-engine-connector.yaml):
 * Pagewright's one way to an engine. Every answer is parsed against the contract; anything else
 * (HTML, a 500, a wrong shape, silence) becomes an EngineError whose message is one sentence that
 * names the engine and the call, shown to the operator as the step's or the dataset's error.
 */

export type EngineErrorKind =
  | 'refused'
  | 'unreachable'
  | 'timeout'
  | 'bad-credentials'
  | 'session-refused'
  | 'not-found'
  | 'http'
  | 'malformed';

export class EngineError extends Error {
  constructor(
    readonly kind: EngineErrorKind,
    readonly call: EngineCall,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'EngineError';
  }

  /** Worth trying again later (the engine is down or busy), as opposed to a wrong answer or input. */
  get isTransient(): boolean {
    return (
      this.kind === 'unreachable' ||
      this.kind === 'timeout' ||
      this.kind === 'session-refused' ||
      (this.kind === 'http' && (this.status ?? 0) >= 500)
    );
  }
}

/** The one fetch an engine call makes (engine-policy.ts gives the worker's, tests a fake). */
export type EngineFetch = (
  url: URL,
  init: {
    method: 'GET' | 'POST';
    headers: Record<string, string>;
    body: string | undefined;
    redirect: 'manual';
    signal: AbortSignal;
  },
) => Promise<Response>;

export interface EngineConnectorOptions {
  /** The engine's base URL (ASK_F_ENGINE_URL's answer, or FENGINE_URL). */
  baseUrl: string;
  /** Throws (with a sentence) when the policy refuses the URL (engine-policy.ts). */
  assertAllowed: (url: string) => Promise<void>;
  /** Each call's limit. */
  timeoutMs?: number;
  /** Answers larger than this are refused: an engine cannot fill the worker's memory. */
  maxResponseBytes?: number;
  /** The policy's fetch, which judges the address again when it connects (engine-policy.ts). */
  fetch?: EngineFetch;
}

export interface EngineSession {
  token: string;
  expiresAt: Date;
}

const DEFAULT_TIMEOUT_MS = 20_000;
const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
/** A session this close to its expiry is renewed before a call rather than refused during it. */
const SESSION_RENEW_MARGIN_MS = 15_000;
const DETAIL_MAX = 200;

/** The base URL without a trailing slash, or an EngineError saying why it is no engine address. */
export function normalizeEngineUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new EngineError('refused', ENGINE_CALLS.signIn, ENGINE_MESSAGES.badUrl(raw));
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password)
    throw new EngineError('refused', ENGINE_CALLS.signIn, ENGINE_MESSAGES.badUrl(raw));
  url.hash = '';
  url.search = '';
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

function shortDetail(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > DETAIL_MAX ? `${oneLine.slice(0, DETAIL_MAX)}…` : oneLine;
}

export function createEngineConnector(options: EngineConnectorOptions) {
  const base = normalizeEngineUrl(options.baseUrl);
  const origin = base.origin;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const doFetch: EngineFetch = options.fetch ?? ((url, init) => fetch(url, init));

  async function readCapped(response: Response, call: EngineCall): Promise<string> {
    const declared = Number(response.headers.get('content-length') ?? '0');
    if (declared > maxBytes)
      throw new EngineError('malformed', call, ENGINE_MESSAGES.malformed(origin, call, `${declared} bytes`));
    if (!response.body) return '';
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new EngineError(
          'malformed',
          call,
          ENGINE_MESSAGES.malformed(origin, call, `more than ${maxBytes} bytes`),
        );
      }
      chunks.push(value);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  async function request<T>(
    call: EngineCall,
    path: string,
    init: { method: 'GET' | 'POST'; token?: string; body?: unknown; query?: Record<string, string> },
    schema: z.ZodType<T>,
  ): Promise<T> {
    // An engine may live under a path (https://host/engine): the contract's paths go below it.
    const url = new URL(`${origin}${base.pathname.replace(/\/+$/, '')}${path}`);
    for (const [name, value] of Object.entries(init.query ?? {})) url.searchParams.set(name, value);
    try {
      await options.assertAllowed(url.toString());
    } catch (error) {
      throw new EngineError(
        'refused',
        call,
        ENGINE_MESSAGES.refused(origin, (error as { reason?: string }).reason ?? causeOf(error)),
      );
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    let text: string;
    try {
      const signal = AbortSignal.timeout(timeoutMs);
      response = await doFetch(url, {
        method: init.method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        // A redirect could lead anywhere, the host's own network included: an engine answers in place.
        redirect: 'manual',
        signal,
      });
      text = await readCapped(response, call);
    } catch (error) {
      if (error instanceof EngineError) throw error;
      const name = (error as { name?: string }).name;
      // The policy's fetch refused the address its socket was about to connect to (rebinding).
      if (name === 'NavigationRefusedError')
        throw new EngineError(
          'refused',
          call,
          ENGINE_MESSAGES.refused(origin, (error as { reason?: string }).reason ?? causeOf(error)),
        );
      if (name === 'TimeoutError' || name === 'AbortError')
        throw new EngineError(
          'timeout',
          call,
          ENGINE_MESSAGES.timeout(origin, call, Math.round(timeoutMs / 1000)),
        );
      throw new EngineError('unreachable', call, ENGINE_MESSAGES.unreachable(origin, call, causeOf(error)));
    }

    const json = parseJson(text);
    if (!response.ok) {
      const body = engineErrorBodySchema.safeParse(json);
      const detail = body.success ? shortDetail(body.data.error) : shortDetail(response.statusText);
      if (response.status === 401 && call === ENGINE_CALLS.signIn)
        throw new EngineError('bad-credentials', call, ENGINE_MESSAGES.badCredentials(origin), 401);
      if (response.status === 401)
        throw new EngineError('session-refused', call, ENGINE_MESSAGES.sessionRefused(origin, call), 401);
      if (response.status === 404 && call === ENGINE_CALLS.investorSections)
        throw new EngineError('not-found', call, detail, 404);
      throw new EngineError(
        'http',
        call,
        ENGINE_MESSAGES.httpError(origin, call, response.status, detail),
        response.status,
      );
    }
    const contentType = response.headers.get('content-type') ?? '';
    if (json === undefined)
      throw new EngineError(
        'malformed',
        call,
        ENGINE_MESSAGES.malformed(
          origin,
          call,
          contentType.includes('html') ? 'an HTML page' : `not JSON: ${shortDetail(text) || 'empty'}`,
        ),
      );
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? issue.path.join('.') : 'the answer';
      throw new EngineError(
        'malformed',
        call,
        ENGINE_MESSAGES.malformed(origin, call, `${where}: ${issue?.message ?? 'unexpected shape'}`),
      );
    }
    return parsed.data;
  }

  return {
    origin,
    baseUrl: base.toString().replace(/\/$/, ''),

    async signIn(username: string, password: string): Promise<EngineSession> {
      const answer = await request(
        ENGINE_CALLS.signIn,
        ENGINE_PATHS.sessions,
        { method: 'POST', body: { username, password } },
        engineSignInResponseSchema,
      );
      return { token: answer.token, expiresAt: new Date(answer.expiresAt) };
    },

    listInvestors(
      session: EngineSession,
      page: { page: number; pageSize: number; search?: string },
    ): Promise<EngineInvestorsPage> {
      return request(
        ENGINE_CALLS.listInvestors,
        ENGINE_PATHS.investors,
        {
          method: 'GET',
          token: session.token,
          query: {
            page: String(page.page),
            pageSize: String(page.pageSize),
            ...(page.search ? { search: page.search } : {}),
          },
        },
        engineInvestorsPageSchema,
      );
    },

    investorSections(session: EngineSession, portfolioid: string): Promise<EngineInvestorSections> {
      return request(
        ENGINE_CALLS.investorSections,
        ENGINE_PATHS.investorSections(portfolioid),
        { method: 'GET', token: session.token },
        engineInvestorSectionsSchema,
      );
    },

    importRows(
      session: EngineSession,
      entity: EngineEntity,
      rows: EngineImportRow[],
    ): Promise<EngineImportResponse> {
      return request(
        ENGINE_CALLS.importRows,
        ENGINE_PATHS.imports(entity),
        { method: 'POST', token: session.token, body: { rows } },
        engineImportResponseSchema,
      );
    },
  };
}

export type EngineConnector = ReturnType<typeof createEngineConnector>;

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A signed-in engine: renews its session when it is about to expire or the engine refused it (once
 * per call), so a long run or import never fails on a session the engine let lapse.
 */
export function createSignedInEngine(
  connector: EngineConnector,
  credentials: { username: string; password: string },
) {
  let session: EngineSession | undefined;

  async function current(): Promise<EngineSession> {
    if (!session || session.expiresAt.getTime() - Date.now() < SESSION_RENEW_MARGIN_MS)
      session = await connector.signIn(credentials.username, credentials.password);
    return session;
  }

  async function withSession<T>(call: (session: EngineSession) => Promise<T>): Promise<T> {
    try {
      return await call(await current());
    } catch (error) {
      if (!(error instanceof EngineError) || error.kind !== 'session-refused') throw error;
      session = undefined;
      return call(await current());
    }
  }

  return {
    connector,
    signIn: () => current(),

    /** Every investor the engine lists (paged), up to ENGINE_INVESTORS_MAX. */
    async allInvestors(search?: string): Promise<Investor[]> {
      const investors: Investor[] = [];
      for (let page = 1; investors.length < ENGINE_INVESTORS_MAX; page += 1) {
        const answer = await withSession((s) =>
          connector.listInvestors(s, {
            page,
            pageSize: ENGINE_INVESTORS_PAGE_SIZE_MAX,
            ...(search ? { search } : {}),
          }),
        );
        investors.push(...answer.items);
        if (answer.items.length === 0 || page * answer.pageSize >= answer.total) break;
      }
      return investors.slice(0, ENGINE_INVESTORS_MAX);
    },

    async investorSections(portfolioid: string): Promise<EngineInvestorSections> {
      try {
        return await withSession((s) => connector.investorSections(s, portfolioid));
      } catch (error) {
        if (error instanceof EngineError && error.kind === 'not-found')
          throw new EngineError('not-found', error.call, ENGINE_MESSAGES.investorUnknown(portfolioid), 404);
        throw error;
      }
    },

    importRows(entity: EngineEntity, rows: EngineImportRow[]): Promise<EngineImportResponse> {
      return withSession((s) => connector.importRows(s, entity, rows));
    },
  };
}

export type SignedInEngine = ReturnType<typeof createSignedInEngine>;
