import type { z } from 'zod';
import {
  addActionResponseSchema,
  builderActionSchema,
  builderViewSchema,
  changeActionRequestSchema,
  messageResponseSchema,
  resequenceResponseSchema,
  type AddActionInput,
  type AddActionResponse,
  type BuilderAction,
  type BuilderView,
  type ExtractorType,
  type ResequenceResponse,
} from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';
import { builderPath } from './builder-path';

/**
 * The calls that change the draft. They run on the live page and may take seconds, so they are
 * quiet: the builder shows its own progress instead of the full-screen overlay.
 */

/** POST /extractor/: adds an action and executes it on the live page (422 "Name (code): message"). */
export function addAction(extractorType: ExtractorType, input: AddActionInput): Promise<AddActionResponse> {
  return apiRequest(builderPath('/extractor/', extractorType), {
    method: 'POST',
    body: input,
    schema: addActionResponseSchema,
    quiet: true,
  });
}

/** POST /extractor/action: changes an action; it needs validating again. */
export function changeAction(
  extractorType: ExtractorType,
  request: z.input<typeof changeActionRequestSchema>,
): Promise<BuilderAction> {
  return apiRequest(builderPath('/extractor/action', extractorType), {
    method: 'POST',
    body: request,
    schema: builderActionSchema,
    quiet: true,
  });
}

/** DELETE /extractor/action?sequence=: never the first action. */
export async function deleteAction(extractorType: ExtractorType, sequence: number): Promise<string> {
  const answer = await apiRequest(builderPath('/extractor/action', extractorType, { sequence }), {
    method: 'DELETE',
    schema: messageResponseSchema,
    quiet: true,
  });
  return answer.message;
}

/** PUT /extractor/sequence: moves one action (the sequence dialog). */
export function changeSequence(
  extractorType: ExtractorType,
  currentSequence: number,
  newSequence: number,
): Promise<BuilderView> {
  return apiRequest(builderPath('/extractor/sequence', extractorType, { currentSequence, newSequence }), {
    method: 'PUT',
    schema: builderViewSchema,
    quiet: true,
  });
}

/** GET /extractor/resequence: renumbers the actions after the first in tens. */
export function resequence(extractorType: ExtractorType): Promise<ResequenceResponse> {
  return apiRequest(builderPath('/extractor/resequence', extractorType), {
    schema: resequenceResponseSchema,
    quiet: true,
  });
}
