import { createPublicKey } from 'node:crypto';
import { isIP } from 'node:net';
import { z } from 'zod';
import { mailConfigShape, parseServiceConfig, serviceConfigShape } from '@pagewright/shared';

/** proxy-addr's names for address ranges, accepted as well as addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: comma-separated addresses or CIDRs of the reverse proxies in front of the API. Only
 * a connection from one of them may name the client in X-Forwarded-For; every other peer is the
 * client itself (rate limits count it, whatever header it sends). Empty (the default): trust none.
 */
const trustedProxies = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry.length > 0),
  )
  .refine((entries) => entries.every(isProxyAddress), 'TRUST_PROXY must list IP addresses or CIDRs');

/** An unset setting, or one left empty in an env file (`FENGINE_JWT_SECRET=`), is absent. */
const optionalSetting = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    schema.optional(),
  );

/** The algorithm an F-engine public key signs with: RS256 for RSA, ES256 for an EC P-256 key. */
export function engineKeyAlgorithm(pem: string): 'RS256' | 'ES256' | null {
  try {
    const key = createPublicKey(pem);
    if (key.asymmetricKeyType === 'rsa') return 'RS256';
    if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1')
      return 'ES256';
    return null;
  } catch {
    return null;
  }
}

/**
 * Remote-engine mode (issue 25): the F-engine opens Pagewright screens with a JWT it signs. One of
 * the three key settings says how it signs (a PEM public key or a JWKS address for RS256/ES256, or
 * a shared secret for HS256); issuer and audience are then required. None set: the mode is off.
 */
const fengineConfigShape = {
  /** PEM public key (RSA: RS256; EC P-256: ES256); `\n` escapes in a one-line value are newlines. */
  FENGINE_JWT_PUBLIC_KEY: optionalSetting(
    z
      .string()
      .transform((value) => value.replace(/\\n/g, '\n'))
      .refine(
        (value) => engineKeyAlgorithm(value) !== null,
        'FENGINE_JWT_PUBLIC_KEY must be a PEM public key: RSA, or EC on the P-256 curve',
      ),
  ),
  /** The engine's JWKS address (RS256/ES256 keys, fetched and cached by key id). */
  FENGINE_JWKS_URL: optionalSetting(
    z
      .string()
      .url('FENGINE_JWKS_URL must be an http(s) address')
      .regex(/^https?:\/\//i, 'FENGINE_JWKS_URL must be an http(s) address'),
  ),
  /** Shared HS256 secret. */
  FENGINE_JWT_SECRET: optionalSetting(
    z.string().min(32, 'FENGINE_JWT_SECRET must be at least 32 characters'),
  ),
  /** The `iss` the engine's tokens carry. */
  FENGINE_JWT_ISSUER: optionalSetting(z.string()),
  /** The `aud` the engine's tokens carry for this Pagewright. */
  FENGINE_JWT_AUDIENCE: optionalSetting(z.string()),
};

type FengineSettings = { [K in keyof typeof fengineConfigShape]?: z.output<(typeof fengineConfigShape)[K]> };

/** One key setting at most, and with it the issuer and the audience. */
function checkFengineSettings(config: FengineSettings, context: z.RefinementCtx): void {
  const keySettings = (['FENGINE_JWT_PUBLIC_KEY', 'FENGINE_JWKS_URL', 'FENGINE_JWT_SECRET'] as const).filter(
    (name) => config[name] !== undefined,
  );
  if (keySettings.length > 1)
    context.addIssue({
      code: 'custom',
      path: [keySettings[1] ?? ''],
      message: `set one of FENGINE_JWT_PUBLIC_KEY, FENGINE_JWKS_URL and FENGINE_JWT_SECRET, not ${keySettings.join(' and ')}`,
    });
  if (keySettings.length === 0) return;
  for (const name of ['FENGINE_JWT_ISSUER', 'FENGINE_JWT_AUDIENCE'] as const)
    if (config[name] === undefined)
      context.addIssue({
        code: 'custom',
        path: [name],
        message: `${name} is required with ${keySettings[0]}`,
      });
}

/**
 * The API's one typed configuration, parsed once from the environment. Nothing else in the API
 * reads process.env.
 */
const configSchema = z
  .object({
    ...serviceConfigShape,
    ...mailConfigShape,
    HOST: z.string().default('0.0.0.0'),
    TRUST_PROXY: trustedProxies,
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    BUILD_HASH: z.string().default('dev'),
    /**
     * PostgreSQL connections the API opens at most (Prisma and the hot raw queries share one pool).
     * 10, node-postgres' default, keeps a 2-core host busy; more helps only with a database that has
     * the cores (and max_connections) for them. docs/performance.md has the figures.
     */
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters'),
    ENCRYPTION_KEY: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'ENCRYPTION_KEY must be 64 hex characters (32 bytes)'),
    ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).default(900),
    REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).default(30),
    /**
     * A refresh token presented again this soon after its rotation is taken as a lost answer (the tab
     * navigated away mid-refresh), not a replay: a new token is issued in the same family. Later
     * re-use revokes the family. 0 turns the grace off.
     */
    REFRESH_TOKEN_REUSE_GRACE_SECONDS: z.coerce.number().int().min(0).max(60).default(10),
    PASSWORD_EXPIRY_DAYS: z.coerce.number().int().min(1).default(90),
    CONFIRMATION_TOKEN_TTL_HOURS: z.coerce.number().int().min(1).default(48),
    TEMP_PASSWORD_TTL_HOURS: z.coerce.number().int().min(1).default(24),
    /**
     * How long an API process remembers a session check (lib/session-callers.ts). Every
     * change of a session or account is announced to all processes at once, so this bounds only a
     * change nobody announced; 0 reads PostgreSQL on every request.
     */
    SESSION_CACHE_SECONDS: z.coerce.number().min(0).max(60).default(5),
    /** How often a live WebSocket is pinged and its session checked (a logged-out one closes). */
    LIVE_SOCKET_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(300).default(30),
    /**
     * How often the API looks for runs whose worker stopped (their job's lock lapsed, see the
     * worker's RUN_LOCK_SECONDS) and ends them ERROR.
     */
    STOPPED_RUN_SWEEP_SECONDS: z.coerce.number().int().min(1).max(300).default(10),
    LOGIN_TOKEN_TTL_SECONDS: z.coerce.number().int().min(10).default(600),
    /** Lifetime of a navigator's screen-share link (e-mailed to its viewer). */
    SCREEN_SHARE_TOKEN_TTL_HOURS: z.coerce.number().int().min(1).default(24),
    LOGIN_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(10),
    LOGIN_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
    /**
     * Failed sign-ins one client address may make across all accounts per window (password spraying,
     * ASVS 2.2.1); past it every sign-in from the address answers 429 until the window ends.
     */
    LOGIN_ADDRESS_FAILURE_MAX: z.coerce.number().int().min(1).default(30),
    LOGIN_ADDRESS_FAILURE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
    /** Sign-ups and password-recovery e-mails per client address per minute. */
    ACCOUNT_EMAIL_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(20),
    /**
     * The largest /message/add or /message/reply body (MB): the spec sends attached files as base64
     * in the JSON, so this caps a message with its files (25 MB is about 18 MB of files).
     */
    MESSAGE_BODY_LIMIT_MB: z.coerce.number().min(1).max(200).default(25),
    /** Messages sent (add and reply) per client address per minute: each one e-mails its recipients. */
    MESSAGE_SEND_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(60),
    /**
     * Messaging limits (issue 24): no open mail relay. Recipients of one message (To, Cc and Bcc
     * together; 400 past it); messages and recipients per account and per e-mailed link in any 24
     * hours (429 past them). A link holder may reply only to the thread's own addresses.
     */
    MESSAGE_RECIPIENTS_MAX: z.coerce.number().int().min(1).max(1000).default(50),
    MESSAGE_ACCOUNT_SENDS_PER_DAY: z.coerce.number().int().min(1).default(200),
    MESSAGE_ACCOUNT_RECIPIENTS_PER_DAY: z.coerce.number().int().min(1).default(500),
    MESSAGE_LINK_SENDS_PER_DAY: z.coerce.number().int().min(1).default(20),
    MESSAGE_LINK_RECIPIENTS_PER_DAY: z.coerce.number().int().min(1).default(60),
    /**
     * Files replies through links may attach to one thread (MB): they are stored under the thread
     * owner's account when the link holder has none. 413 past it.
     */
    MESSAGE_LINK_ATTACHMENTS_MAX_MB: z.coerce.number().min(0).max(10_000).default(10),
    /** Message attachments one account may keep (MB, its own and link replies' files); 413 past it. */
    MESSAGE_ATTACHMENTS_QUOTA_MB: z.coerce.number().min(1).max(1_000_000).default(1024),
    /**
     * A send whose body is over MESSAGE_LARGE_BODY_MB is large: it must get a slot before its body is
     * read (this many at once in the process, this many per user or client address), else 429. Parsed,
     * a 25 MB send holds about 100 MB of heap.
     */
    MESSAGE_LARGE_BODY_MB: z.coerce.number().min(0.1).max(200).default(1),
    MESSAGE_LARGE_SENDS_MAX_RUNNING: z.coerce.number().int().min(1).max(64).default(4),
    MESSAGE_LARGE_SENDS_MAX_PER_USER: z.coerce.number().int().min(1).max(64).default(1),
    /** How long a template page image's signed address works (an <img> cannot send the bearer token). */
    TEMPLATE_IMAGE_URL_TTL_SECONDS: z.coerce.number().int().min(30).max(86_400).default(900),
    /**
     * Query exports (GET /query/export/excel) this process runs at once; one more answers 503 'Too
     * many exports are running. Try again shortly.'. A large export holds a writer thread (up to
     * ~150 MB of heap) and a database connection of its own for as long as its reader takes.
     */
    QUERY_EXPORTS_MAX_RUNNING: z.coerce.number().int().min(1).max(64).default(4),
    /** Query exports one user runs at once in this process; one more answers 503 with its own text. */
    QUERY_EXPORTS_MAX_PER_USER: z.coerce.number().int().min(1).max(64).default(2),
    /** An export whose reader has read nothing (or that has produced nothing) for this long is ended. */
    QUERY_EXPORT_STALL_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
    /**
     * The longest a dataset's save may change its table (a type change rewrites every row: ~12 s for
     * 300,000 rows converted to dates on the 2-core host). Its transaction and each statement in it
     * get this long, not Prisma's 5 s or the session's DATABASE_STATEMENT_TIMEOUT_SECONDS; past it the
     * save answers 503 in a sentence and nothing changed.
     */
    DATASET_SAVE_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(3600).default(600),
    /**
     * How long a dataset's save waits for its table while an export or a run reads it; then it
     * answers 409 'The dataset is in use…' instead of queueing every later reader behind its lock.
     */
    DATASET_SAVE_LOCK_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(120).default(5),
    /**
     * Schedulers one account may keep, and the firings an hour all of them may add up to (an interval
     * of n minutes counts 60/n, a daily one 1/24): one account's schedules must not fill the workers
     * everyone's runs share (issue 24). A save past either is refused with its own text.
     */
    SCHEDULERS_MAX_PER_USER: z.coerce.number().int().min(1).max(100_000).default(50),
    SCHEDULER_FIRINGS_MAX_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(600),
    /** How long pdf-to-text waits for its PDF to be read (the worker ends a job at its own limit). */
    RECOGNITION_WAIT_SECONDS: z.coerce.number().int().min(5).max(3600).default(180),
    /**
     * Calls one API key may make per minute on the public API (/api/v1), counted in fixed one-minute
     * windows in Redis (every API process shares them); one more answers 429 with Retry-After.
     */
    API_KEY_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(120),
    WEB_DIST: z.string().default('apps/web/dist'),
    ...fengineConfigShape,
  })
  .superRefine(checkFengineSettings);

export type ApiConfig = z.infer<typeof configSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  return parseServiceConfig('API', configSchema, env);
}
