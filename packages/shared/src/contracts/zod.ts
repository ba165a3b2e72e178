/**
 * zod as the contracts use it: the whole library, except that every `z.string()` also refuses NUL
 * and lone UTF-16 surrogates (isSafeText), naming the field like any other rule. Contracts import
 * `z` from here (the linter refuses 'zod' in contracts/), so every string field, new ones included,
 * is safe to store without each schema remembering to ask. Formats built on `z.string()` (`.uuid()`,
 * `.trim()`, `.max()`...) keep the rule; zod's own top-level formats (`z.email()`) cannot hold NUL.
 */
import * as zod from 'zod';
import { MESSAGES } from '../messages.js';
import { isSafeText } from '../validation.js';

export * from 'zod';

/** `z.string()` with the safe-text rule first; its failure ends the field's checks. */
export function string(params?: Parameters<typeof zod.string>[0]): zod.ZodString {
  return zod
    .string(params)
    .check(zod.refine(isSafeText, { message: MESSAGES['error.unsafe.characters'], abort: true }));
}
