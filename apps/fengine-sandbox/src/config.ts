import { z } from 'zod';

import { DEFAULT_DATABASE_URL, DEFAULT_PASSWORD, DEFAULT_PORT, DEFAULT_USERNAME } from './constants.js';

const configSchema = z.object({
  FENGINE_SANDBOX_HOST: z.string().min(1).default('127.0.0.1'),
  FENGINE_SANDBOX_PORT: z.coerce.number().int().min(0).max(65_535).default(DEFAULT_PORT),
  FENGINE_SANDBOX_DATABASE_URL: z.string().url().default(DEFAULT_DATABASE_URL),
  FENGINE_SANDBOX_SESSION_TTL_SECONDS: z.coerce.number().int().min(1).default(900),
  FENGINE_SANDBOX_USER: z.string().min(1).default(DEFAULT_USERNAME),
  FENGINE_SANDBOX_PASSWORD: z.string().min(1).default(DEFAULT_PASSWORD),
  // Empty means unset: the fault switches exist only when a token is given.
  FENGINE_SANDBOX_ADMIN_TOKEN: z
    .string()
    .optional()
    .transform((value) => (value ? value : undefined)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type SandboxConfig = z.infer<typeof configSchema>;

/** The sandbox's one typed configuration, parsed once; nothing else reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): SandboxConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid F-engine sandbox configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}
