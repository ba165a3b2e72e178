import { availableParallelism } from 'node:os';
import { z } from 'zod';
import {
  LOCAL_BROWSER_NAME,
  PDF_PAGES_MAX_DEFAULT,
  WEBHOOK_JOB_ATTEMPTS_CEILING,
  booleanFromEnv,
  mailConfigShape,
  parseServiceConfig,
  serviceConfigShape,
} from '@pagewright/shared';
import { DEFAULT_CHROMIUM_PATH } from '@pagewright/automation';

/** A comma-separated list of host names, without blanks. */
const hostList = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((host) => host.trim())
      .filter(Boolean),
  );

/**
 * Exact origins, comma-separated: `http://10.0.0.5:8090`. A bare host, a path or another scheme is
 * refused with the entry named, so a typo cannot widen what is allowed.
 */
const originList = z
  .string()
  .default('')
  .transform((value, context) => {
    const origins: string[] = [];
    for (const entry of value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)) {
      const url = URL.canParse(entry) ? new URL(entry) : undefined;
      if (
        !url ||
        (url.protocol !== 'http:' && url.protocol !== 'https:') ||
        `${url.origin}/` !== url.href.replace(/\/?$/, '/')
      ) {
        context.addIssue({
          code: 'custom',
          message: `"${entry}" is not an origin: write scheme, host and port, e.g. http://10.0.0.5:8090`,
        });
        continue;
      }
      origins.push(url.origin);
    }
    return origins;
  });

const FENGINE_ALLOWED_HOSTS_GONE =
  'FENGINE_ALLOWED_HOSTS is no longer read: it allowed every port of a host. List the engine by its exact origin in FENGINE_ALLOWED_ORIGINS instead, e.g. http://10.0.0.5:8090 (docs/f-engine.md).';

/** One browser host a worker may use (issue 27): its name, its address and its token. */
export interface BrowserEndpoint {
  name: string;
  /** ws:// or wss:// address without credentials (safe to log and show). */
  url: string;
  token: string;
}

/**
 * BROWSER_ENDPOINTS: `name=ws://:TOKEN@host:port/playwright`, comma-separated. The token rides in
 * the URL's password so that one variable holds the list; the worker sends it as a bearer header
 * and never logs or shows it.
 */
const browserEndpointList = z
  .string()
  .default('')
  .transform((value, context) => {
    const endpoints: BrowserEndpoint[] = [];
    for (const entry of value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)) {
      const separator = entry.indexOf('=');
      const name = separator > 0 ? entry.slice(0, separator).trim() : '';
      let url: URL | undefined;
      try {
        url = new URL(entry.slice(separator + 1).trim());
      } catch {
        url = undefined;
      }
      const fault = !/^[A-Za-z0-9_.-]{1,40}$/.test(name)
        ? 'a name (letters, digits, . _ -) before "="'
        : name === LOCAL_BROWSER_NAME
          ? `a name other than "${LOCAL_BROWSER_NAME}" (the worker's own Chromium)`
          : !url || (url.protocol !== 'ws:' && url.protocol !== 'wss:')
            ? 'a ws:// or wss:// address after "="'
            : !url.password
              ? "its token as the address's password (ws://:TOKEN@host:port/playwright)"
              : endpoints.some((endpoint) => endpoint.name === name)
                ? 'a name no other entry has'
                : undefined;
      if (fault || !url) {
        context.addIssue({
          code: 'custom',
          message: `entry "${name || entry.split('@').pop()}" needs ${fault}`,
        });
        continue;
      }
      const token = decodeURIComponent(url.password);
      url.username = '';
      url.password = '';
      endpoints.push({ name, url: url.toString(), token });
    }
    return endpoints;
  });

/** The worker's one typed configuration, parsed once from the environment. */
const configSchema = z.object({
  ...serviceConfigShape,
  ...mailConfigShape,
  CHROMIUM_PATH: z.string().default(DEFAULT_CHROMIUM_PATH),
  /** Browser hosts on other machines (docs/scaling.md "The browser tier"); empty: only the worker's own. */
  BROWSER_ENDPOINTS: browserEndpointList,
  /**
   * Whether the worker also launches its own Chromium beside its BROWSER_ENDPOINTS. Without
   * endpoints it always does; with them, false leaves the browsers to the hosts.
   */
  BROWSER_LOCAL: booleanFromEnv.default(true),
  /**
   * How often each browser host's health is read. Two missed checks in a row take it out: its
   * runs end ERROR and new contexts go elsewhere (well within a minute at the default).
   */
  BROWSER_HEALTH_SECONDS: z.coerce.number().int().min(1).max(300).default(10),
  /** Let flows reach loopback, private and link-local addresses (intranet deployments only). */
  NAVIGATION_ALLOW_PRIVATE_NETWORKS: booleanFromEnv.default(false),
  /** Hosts flows may reach even when private, comma-separated (e.g. an intranet app, a test site). */
  NAVIGATION_ALLOWED_HOSTS: hostList,
  /** How long the link in a message's e-mail opens the thread without a session (days). */
  MESSAGE_LINK_TTL_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /**
   * The message outbox (issue 24): every MESSAGE_MAIL_REQUEUE_EVERY_SECONDS a job queues again the
   * e-mails still PENDING this long after they were stored (MESSAGE_MAIL_REQUEUE_AFTER_SECONDS).
   */
  MESSAGE_MAIL_REQUEUE_AFTER_SECONDS: z.coerce.number().int().min(1).max(86_400).default(120),
  MESSAGE_MAIL_REQUEUE_EVERY_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /**
   * PDFs (template pages, statements) read at once, each in a child process of this worker: one a
   * core by default.
   */
  RECOGNITION_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(32)
    .default(Math.max(1, availableParallelism())),
  /** A PDF still being read after this long ends its process (a hostile or broken document). */
  RECOGNITION_JOB_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(3600).default(120),
  /** A PDF claiming more pages than this is refused with a sentence before anything is read. */
  RECOGNITION_PDF_PAGES_MAX: z.coerce.number().int().min(1).max(100_000).default(PDF_PAGES_MAX_DEFAULT),
  /**
   * The V8 heap of each recognition child, in MB (--max-old-space-size): PDF.js's objects for a
   * hostile PDF end that child, not the machine. Its pixels are native memory, capped per page and
   * per box in @pagewright/recognition.
   */
  RECOGNITION_HEAP_MB: z.coerce.number().int().min(128).max(16_384).default(512),
  /**
   * Runs of one user's bulk runs going at once across all workers (issue 26): the rest of their
   * items wait PENDING. Other users' runs and the user's own single runs are not held back by it.
   */
  BULK_RUN_CONCURRENCY_PER_USER: z.coerce.number().int().min(1).max(64).default(3),
  /** Flow runs one worker process executes at once (each in its own browser context). */
  WORKER_RUN_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  /**
   * The lock a worker renews on each run it executes (every half of it). A worker that dies
   * mid-run stops renewing: its run ends ERROR about this long later (the stalled check and the
   * API's sweep see the lapsed lock). Shorter notices dead workers sooner; it must stay well above
   * the longest pause of a busy worker's event loop.
   */
  RUN_LOCK_SECONDS: z.coerce.number().int().min(5).max(600).default(30),
  /**
   * Opens secrets stored with actions (TYPE_PASSWORD); the API's key. Optional so a worker without
   * it still starts: flows that need a secret then fail with a message saying why.
   */
  ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'ENCRYPTION_KEY must be 64 hex characters (32 bytes)')
    .optional(),
  /**
   * The largest value one step may produce (JSON bytes); a larger one fails the step. Values go
   * through Redis to the builder and into every stored run step.
   */
  STEP_VALUE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  /** How long a run waits for the answer to an ASK_* step before it stops (STOPPED). */
  ASK_TIMEOUT_SECONDS: z.coerce.number().int().min(10).max(3600).default(300),
  LIVE_SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).default(15),
  SESSION_RETENTION_DAYS: z.coerce.number().int().min(0).default(7),
  /**
   * How often the job schedulers in Redis are compared with the schedulers in PostgreSQL and put
   * back when Redis lost them (also done on every reconnect). A lost schedule fires again within
   * this long.
   */
  JOB_SCHEDULER_RECONCILE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  UNCONFIRMED_SIGNUP_RETENTION_DAYS: z.coerce.number().int().min(1).default(7),
  /**
   * The F-engine that engine datasets' rows are imported into (docs/f-engine.md). Optional: without
   * it the rows wait, and the dataset says so.
   */
  FENGINE_URL: z.string().trim().optional(),
  FENGINE_USER: z.string().optional(),
  FENGINE_PASSWORD: z.string().optional(),
  /**
   * Engines allowed even on a private network, by exact origin (scheme, host and port),
   * comma-separated: an engine URL passes the navigation egress policy (NAVIGATION_*) or is one of
   * these (issue 38). FENGINE_URL's origin is allowed for imports without being listed.
   */
  FENGINE_ALLOWED_ORIGINS: originList,
  /** Read only to refuse it: it allowed whole hosts, every port of 127.0.0.1 included (issue 38). */
  FENGINE_ALLOWED_HOSTS: z
    .string()
    .optional()
    .refine((value) => !value?.trim(), { message: FENGINE_ALLOWED_HOSTS_GONE }),
  /** How often engine datasets with rows still waiting are queued for import again. */
  FENGINE_IMPORT_SWEEP_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  /** The first retry delay of an import (doubled at each of its 8 tries). */
  FENGINE_IMPORT_RETRY_SECONDS: z.coerce.number().int().min(1).max(3600).default(5),
  /**
   * Webhook hosts allowed even on a private network, comma-separated: a webhook URL passes the
   * navigation egress policy (NAVIGATION_*) extended by these hosts (docs/api.md "Webhooks").
   */
  WEBHOOK_ALLOWED_HOSTS: hostList,
  /** Attempts of one webhook delivery before it shows FAILED (12: about a day with the delays below). */
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(WEBHOOK_JOB_ATTEMPTS_CEILING).default(12),
  /** The delay before a delivery's second attempt, doubled at each later one up to the cap below. */
  WEBHOOK_RETRY_FIRST_DELAY_MS: z.coerce.number().int().min(1).max(86_400_000).default(60_000),
  WEBHOOK_RETRY_MAX_DELAY_MS: z.coerce
    .number()
    .int()
    .min(1)
    .max(86_400_000)
    .default(8 * 3600 * 1000),
});

export type WorkerConfig = z.infer<typeof configSchema>;

/** `./pagewright browser-host`: a browser for workers on other machines (browser-host/main.ts). */
const browserHostConfigSchema = z.object({
  LOG_LEVEL: serviceConfigShape.LOG_LEVEL,
  CHROMIUM_PATH: z.string().default(DEFAULT_CHROMIUM_PATH),
  NAVIGATION_ALLOW_PRIVATE_NETWORKS: booleanFromEnv.default(false),
  NAVIGATION_ALLOWED_HOSTS: hostList,
  /** Loopback by default: listening on other interfaces is the operator's explicit choice. */
  BROWSER_HOST_BIND: z.string().default('127.0.0.1'),
  BROWSER_HOST_PORT: z.coerce.number().int().min(0).max(65_535).default(3900),
  BROWSER_HOST_TOKEN: z.string().min(24, 'BROWSER_HOST_TOKEN must be at least 24 characters'),
});
export type BrowserHostConfig = z.infer<typeof browserHostConfigSchema>;

export function loadBrowserHostConfig(env: NodeJS.ProcessEnv = process.env): BrowserHostConfig {
  return parseServiceConfig('browser host', browserHostConfigSchema, env);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  return parseServiceConfig('worker', configSchema, env);
}
