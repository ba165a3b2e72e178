import * as z from './zod.js';

/**
 * Browsers on other machines (issue 27, docs/scaling.md "The browser tier"): a browser host runs
 * Playwright's browser server behind a token; workers connect to the hosts their
 * BROWSER_ENDPOINTS list, check their health and spread new browser contexts over them by load.
 */

/** The path workers connect to on a browser host (the WebSocket of Playwright's protocol). */
export const BROWSER_HOST_PLAYWRIGHT_PATH = '/playwright';
/** The name the worker's own Chromium goes by in the browser tier. */
export const LOCAL_BROWSER_NAME = 'local';

/** A browser host's answer to `GET /health` (with its token). */
export const browserHostHealthSchema = z.object({
  status: z.literal('ok'),
  chromiumVersion: z.string(),
  /** Chromium renderer processes on the host, from every worker's pages (two or three a page). */
  renderers: z.number().int().min(0),
  /** Workers connected now. */
  connections: z.number().min(0),
  /** The host machine's pressure, which workers weigh when they spread contexts. */
  loadAverage: z.number().min(0),
  cores: z.number().int().min(1),
  freeMemoryMb: z.number().min(0),
  /** The egress policy its Chromium goes through (a worker refuses a host looser than itself). */
  policy: z.object({ allowPrivateNetworks: z.boolean(), allowedHosts: z.array(z.string()) }),
});
export type BrowserHostHealth = z.infer<typeof browserHostHealthSchema>;

export const BROWSER_TARGET_STATES = ['UP', 'DOWN', 'REFUSED'] as const;
export type BrowserTargetState = (typeof BROWSER_TARGET_STATES)[number];

/** One browser as a worker sees it (its own Chromium or a host), published for the Settings card. */
export const browserTargetStatusSchema = z.object({
  name: z.string(),
  /** The host's address without its token; null for the worker's own Chromium. */
  url: z.string().nullable(),
  state: z.enum(BROWSER_TARGET_STATES),
  /** Why a host is DOWN or REFUSED, in a sentence. */
  reason: z.string().nullable(),
  /** Contexts (runs, sessions, validations) this worker holds on it now. */
  contexts: z.number().int().min(0),
  /** Whether its machine was under pressure at the last check (load above twice its cores, or little free memory). */
  busy: z.boolean(),
  /** Its machine's 1-minute load average and cores at the last check. */
  loadAverage: z.number().min(0),
  cores: z.number().int().min(1),
  /** A host's Chromium renderer processes (every worker's pages); null for the worker's own Chromium. */
  renderers: z.number().int().min(0).nullable(),
  checkedAt: z.string().datetime(),
});
export type BrowserTargetStatus = z.infer<typeof browserTargetStatusSchema>;

/** `GET /api/browser-hosts`: each live worker's view of its browsers. */
export const browserTierSchema = z.object({
  workers: z.array(
    z.object({
      workerId: z.string(),
      browsers: z.array(browserTargetStatusSchema),
    }),
  ),
});
export type BrowserTier = z.infer<typeof browserTierSchema>;
