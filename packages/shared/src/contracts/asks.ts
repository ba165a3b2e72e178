import { z } from 'zod';
import { ACTION_TYPES, EXTRACTOR_TYPES } from '../enums.js';

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
} as const;

/** GET /extractor/getPendingAskActionToFill */
export const pendingAskQuerySchema = z.object({
  extractorType: z.enum(EXTRACTOR_TYPES).default('EXTRACTOR'),
});
export type PendingAskQuery = z.infer<typeof pendingAskQuerySchema>;

export const pendingAskActionSchema = z.object({
  id: z.string().uuid(),
  type: z.enum(ACTION_TYPES),
  label: z.string().nullable(),
  options: z.object({ text: z.string().nullable() }),
  /** Whether "save for next time" starts checked (the action's recorded choice). */
  saveOptionsFlag: z.boolean(),
  /** The target element (captcha, question area) as base64 PNG/JPEG bytes, or null. */
  elementScreenshot: z.string().nullable(),
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
