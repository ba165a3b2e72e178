import * as z from './zod.js';
import { ACTION_TYPES, ASK_MULTI_STEP_PHASES, EXTRACTOR_TYPES, type ActionType } from '../enums.js';
import { pageElementAreaSchema } from './automation.js';
import { managementDtoSchema } from './fengine.js';

/**
 * The ask dialog (automation spec §3 "Pending ask action", §4 "Ask dialog", §7
 * getPendingAskActionToFill / updatePendingAskAction): a run waiting on an ASK_* step and the
 * operator's answer to it.
 */

/** The Redis list a run's worker waits on (BLPOP) for the answer to one ask. */
export function askAnswerKey(keyPrefix: string, askId: string): string {
  return `${keyPrefix}ask:${askId}:answer`;
}

export const ASK_MESSAGES = {
  answerSent: 'Answer sent',
  expired: 'The question was not answered in time.',
  unknownArea: 'Pick one of the areas shown on the picture.',
  recaptchaRoundsExceeded: 'The reCAPTCHA was not confirmed after the most clicks allowed',
} as const;

/** The word the ask dialog sends when the operator cancels: the run stops (automation spec §4). */
export const ASK_CANCELED = 'CANCELED';

/**
 * ASK_RECAPTCHA: each answer is the selector of one offered area, which the run clicks before it
 * asks again with a fresh picture; this answer (Confirm with nothing typed) says the widget is
 * solved and the run goes on. 'CANCELED' still stops the run.
 */
export const RECAPTCHA_DONE = '';
/**
 * Captchas change on every visit: their answers are never saved for next time, never replayed
 * by a later run, and the dialog offers no save box for them.
 */
export const NEVER_SAVED_ASK_TYPES = [
  'ASK_CAPTCHA',
  'ASK_RECAPTCHA',
] as const satisfies readonly ActionType[];
export function isAnswerSavable(type: ActionType): boolean {
  return !(NEVER_SAVED_ASK_TYPES as readonly ActionType[]).includes(type);
}

/** At most this many area clicks per ASK_RECAPTCHA step: a run never loops on a captcha forever. */
export const RECAPTCHA_MAX_ROUNDS = 30;

/** GET /extractor/getPendingAskActionToFill */
export const pendingAskQuerySchema = z.object({
  extractorType: z.enum(EXTRACTOR_TYPES).default('EXTRACTOR'),
});
export type PendingAskQuery = z.infer<typeof pendingAskQuerySchema>;

export const pendingAskActionSchema = z.object({
  id: z.string().uuid(),
  type: z.enum(ACTION_TYPES),
  label: z.string().nullable(),
  options: z.object({
    text: z.string().nullable(),
    /** Multi-step asks: the question/captcha area and its picture (base64 PNG); otherwise null. */
    askMultiStepDto: z
      .object({
        builderStep: z.enum(ASK_MULTI_STEP_PHASES),
        askDataContentSelector: z.string().nullable(),
        askDataScreenshot: z.string().nullable(),
      })
      .nullable(),
  }),
  /** Whether "save for next time" starts checked (the action's recorded choice). */
  saveOptionsFlag: z.boolean(),
  /**
   * Whether the ask's action is a saved one. A validation run's new draft actions are not: an
   * answer cannot be kept for them ('extractor.ask.save.unsaved'), so the dialog refuses the flag.
   */
  isActionSaved: z.boolean(),
  /** The target element (captcha, question area) as base64 PNG/JPEG bytes, or null. */
  elementScreenshot: z.string().nullable(),
  /**
   * ASK_RECAPTCHA: the clickable areas of the widget, in elementScreenshot's pixel coordinates;
   * the answer is one of their selectors. Null for other asks.
   */
  normalizedElements: z.array(pageElementAreaSchema).nullable(),
  /** ASK_F_ENGINE_INVESTOR: the engine's investors to choose from (the answer is a portfolioid). */
  managementDTO: managementDtoSchema.nullable(),
  extractorId: z.string().uuid(),
  runId: z.string().uuid(),
  updated: z.literal(false),
});
export type PendingAskAction = z.infer<typeof pendingAskActionSchema>;

/** POST /extractor/updatePendingAskAction; textValue 'CANCELED' stops the run. */
export const updatePendingAskRequestSchema = z.object({
  id: z.string().uuid(),
  textValue: z.string().max(10_000),
  saveOptionsFlag: z.boolean().optional(),
});
export type UpdatePendingAskRequest = z.infer<typeof updatePendingAskRequestSchema>;

export const updatePendingAskResponseSchema = z.object({ message: z.string() });
export type UpdatePendingAskResponse = z.infer<typeof updatePendingAskResponseSchema>;
