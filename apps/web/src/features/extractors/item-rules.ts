import { MESSAGES, startExtractorRequestSchema } from '@pagewright/shared';
import { fieldErrorsOf, type FieldErrors } from '../../lib/form-errors';
import type { ListKind } from './list-kinds';

export interface ItemFields {
  name: string;
  description: string;
  viewerEmail: string;
}
export type ItemFieldErrors = FieldErrors<keyof ItemFields>;

/**
 * The add/rename dialog rules (spec §5), checked with the API's own schema so both show the same
 * texts: name and description required after trimming (with the kind's message ids) and at most
 * 128 / 1024 characters; a navigator's viewer e-mail, asked on create only, is required, matches
 * VIEWER_EMAIL_PATTERN and has at most 255 characters.
 */
export function itemFieldErrors(
  kind: ListKind,
  fields: ItemFields,
  isViewerEmailAsked: boolean,
): ItemFieldErrors {
  const errors = fieldErrorsOf<keyof ItemFields>(startExtractorRequestSchema, {
    name: fields.name,
    description: fields.description,
    // Rename never changes the viewer e-mail: checked as a kind that has none.
    extractorType: isViewerEmailAsked ? kind.extractorType : 'EXTRACTOR',
    viewerEmail: isViewerEmailAsked ? fields.viewerEmail : undefined,
  } as Record<keyof ItemFields, unknown>);
  if (fields.name.trim() === '') errors.name = MESSAGES[kind.messages.name];
  if (fields.description.trim() === '') errors.description = MESSAGES[kind.messages.description];
  return errors;
}
