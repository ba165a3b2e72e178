import { z } from 'zod';

/** The worker's one typed configuration, parsed once from the environment. */
const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: z.string().default('postgresql://postgres@127.0.0.1:5432/pagewright'),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  CHROMIUM_PATH: z.string().default('/usr/bin/chromium'),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).default(2),
  SESSION_RETENTION_DAYS: z.coerce.number().int().min(0).default(7),
  UNCONFIRMED_SIGNUP_RETENTION_DAYS: z.coerce.number().int().min(1).default(7),
});

export type WorkerConfig = z.infer<typeof configSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid worker configuration: ${problems}`);
  }
  return parsed.data;
}
