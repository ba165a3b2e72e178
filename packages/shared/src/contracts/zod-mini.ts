/**
 * zod/mini as the contracts use it: the twin of `./zod.js` for the few schemas the SPA's first
 * download needs (`account-screens.ts`). zod/mini has functions instead of methods, so a bundle
 * keeps only what it calls; its `string()` refuses NUL and lone surrogates first, like `./zod.js`.
 */
import * as zod from 'zod/mini';
import { MESSAGES } from '../messages.js';
import { isSafeText } from '../validation.js';

export * from 'zod/mini';

/** `z.string()` with the safe-text rule first; its failure ends the field's checks. */
export function string(params?: Parameters<typeof zod.string>[0]): zod.ZodMiniString {
  return zod
    .string(params)
    .check(zod.refine(isSafeText, { message: MESSAGES['error.unsafe.characters'], abort: true }));
}
