import * as z from './zod.js';
import { ACTION_TYPES, RUN_STATUSES } from '../enums.js';
import { tokenParamSchema } from './auth.js';

/**
 * The read-only screen-share view of a navigator run (automation spec §2 screen-share view, §3
 * "Navigator run (screen-share view)", §7 GET /extractor/token/:token) and the one-time file links
 * it hands out (/file/:token). The token in the URL is the only credential: the API stores the hex
 * SHA-256 of each token, never the token itself.
 */

/** Texts of the screen share and download links that the spec leaves to the product. */
export const SCREEN_SHARE_MESSAGES = {
  linkInvalid: 'This screen share link is invalid, has expired or was withdrawn.',
  stepContentMissing: 'This step has no such content.',
  downloadLinkInvalid: 'This download link has expired or was already used.',
  tooManyRequests: 'Too many requests for this link. Please wait a minute and try again.',
  noLivePage: 'The shared session has no live page right now.',
} as const;

/** Lifetime of a one-time download link handed out by the screen-share view. */
export const FILE_DOWNLOAD_TOKEN_TTL_SECONDS = 600;

/** GET /extractor/token/:token, GET /file/:token */
export const screenShareTokenParamSchema = tokenParamSchema;

/** GET /extractor/token/:token/step/:sequence/{screen,html,file} */
export const screenShareStepParamSchema = tokenParamSchema.extend({
  sequence: z.coerce.number().int().min(0),
});
export type ScreenShareStepParams = z.infer<typeof screenShareStepParamSchema>;

/** One recorded action as the viewer sees it; its content is fetched per sequence. */
export const screenShareActionSchema = z.object({
  sequence: z.number().int(),
  type: z.enum(ACTION_TYPES).nullable(),
  label: z.string().nullable(),
  pageUrl: z.string().nullable(),
  timestamp: z.string(),
  /** A page screenshot is served by .../step/:sequence/screen. */
  hasScreen: z.boolean(),
  /** The page's normalized HTML is served (as text) by .../step/:sequence/html. */
  hasHtml: z.boolean(),
  /** A downloaded file: .../step/:sequence/file hands out a one-time /file/:token link. */
  hasFile: z.boolean(),
  fileName: z.string().nullable(),
});
export type ScreenShareAction = z.infer<typeof screenShareActionSchema>;

/** GET /extractor/token/:token: the shared run; the view polls it while status is EXECUTING. */
export const screenShareViewSchema = z.object({
  name: z.string(),
  userFullName: z.string(),
  status: z.enum(RUN_STATUSES),
  errorMessage: z.string().nullable(),
  /** ISO time of the latest step, else of the run's start (or of the link, before the run starts). */
  timestamp: z.string(),
  /** URL of the latest step's page. */
  pageUrl: z.string().nullable(),
  /** In sequence order, then time (a loop repeats a sequence). */
  actions: z.array(screenShareActionSchema),
});
export type ScreenShareView = z.infer<typeof screenShareViewSchema>;

/**
 * GET /extractor/token/:token/live: the shared session's page as it looks now (its latest frame),
 * while its navigator is driven in the builder; read-only, nothing is sent to the page.
 */
export const screenShareLiveFrameSchema = z.object({
  /** JPEG, base64. */
  image: z.string(),
  pageUrl: z.string(),
  /** The viewport the picture shows, in CSS pixels. */
  width: z.number().int(),
  height: z.number().int(),
});
export type ScreenShareLiveFrame = z.infer<typeof screenShareLiveFrameSchema>;

/** GET /extractor/token/:token/step/:sequence/file: `url` is the SPA's /file/:token page. */
export const fileDownloadLinkSchema = z.object({
  token: z.string(),
  url: z.string(),
  expiresAt: z.string(),
});
export type FileDownloadLink = z.infer<typeof fileDownloadLinkSchema>;

/** What minting a screen share gives its owner: the viewer's link (also e-mailed). */
export const screenShareLinkSchema = z.object({
  token: z.string(),
  url: z.string(),
  expiresAt: z.string(),
});
export type ScreenShareLink = z.infer<typeof screenShareLinkSchema>;
