/**
 * Checked by `pnpm typecheck` (nothing runs it): the caller every handler sees carries no user
 * row, so no handler can read, log or answer with a password hash (issue 10, builder state 6).
 * Before, `request.user.account` was the whole Prisma User.
 */
import type { FastifyRequest } from 'fastify';
import type { User } from '@pagewright/db';
import './auth.js';

type Caller = FastifyRequest['user'];
/** Fields of the caller that are, or could hold, the user's secrets. */
type SecretBearing = {
  [Key in keyof Caller]: Caller[Key] extends User | object ? Key : never;
}[keyof Caller];
type HashNamed = Extract<keyof Caller, `${string}${'hash' | 'Hash'}${string}` | 'password' | 'account'>;

export const callerHoldsNoUserRow: [SecretBearing, HashNamed] extends [never, never] ? true : false = true;
