import { z } from 'zod';
import { parseServiceConfig, serviceConfigShape } from '@pagewright/shared';

/** The worker's one typed configuration, parsed once from the environment. */
const configSchema = z.object({
  ...serviceConfigShape,
  CHROMIUM_PATH: z.string().default('/usr/bin/chromium'),
  SESSION_RETENTION_DAYS: z.coerce.number().int().min(0).default(7),
  UNCONFIRMED_SIGNUP_RETENTION_DAYS: z.coerce.number().int().min(1).default(7),
});

export type WorkerConfig = z.infer<typeof configSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  return parseServiceConfig('worker', configSchema, env);
}
