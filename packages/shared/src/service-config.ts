import { z } from 'zod';

/**
 * Pieces of the API's and the worker's typed configuration. Each app's config.ts owns its schema
 * and is the only place that reads the environment; this file only parses what it is given.
 */
export const serviceConfigShape = {
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: z.string().default('postgresql://postgres@127.0.0.1:5432/pagewright'),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  /** Prefix of every Redis key a deployment writes, so deployments can share one Redis. */
  REDIS_KEY_PREFIX: z.string().default('pagewright:'),
  /**
   * Every connection's statement_timeout and idle_in_transaction_session_timeout, in seconds (0:
   * none): a statement or an idle transaction (a stalled export reader) cannot hold a connection
   * and its locks for ever. A dataset's table rewrite raises its own with SET LOCAL.
   */
  DATABASE_STATEMENT_TIMEOUT_SECONDS: z.coerce.number().int().min(0).max(86_400).default(120),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_SECONDS: z.coerce.number().int().min(0).max(86_400).default(120),
};

/** The database session limits of a service's config, as createDatabase takes them. */
export const databaseTimeoutsOf = (config: {
  DATABASE_STATEMENT_TIMEOUT_SECONDS: number;
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_SECONDS: number;
}) => ({
  statementMs: config.DATABASE_STATEMENT_TIMEOUT_SECONDS * 1000,
  idleInTransactionMs: config.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_SECONDS * 1000,
});

/** 'true'/'false'/'1'/'0' from the environment as a boolean. */
export const booleanFromEnv = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** Where e-mail goes and what its links point at: the API and the worker both send mail. */
export const mailConfigShape = {
  /** The address people open the product at; links in e-mails start with it. */
  PUBLIC_URL: z.string().url().default('http://localhost:8080'),
  SMTP_HOST: z.string().default('127.0.0.1'),
  SMTP_PORT: z.coerce.number().int().default(1025),
  SMTP_SECURE: booleanFromEnv.default(false),
  SMTP_USER: z.string().optional(),
  SMTP_PASSWORD: z.string().optional(),
  MAIL_FROM: z.string().default('Pagewright <no-reply@pagewright.local>'),
};
export type MailConfig = z.infer<z.ZodObject<typeof mailConfigShape>>;

/** Parses the environment once; a bad value stops the service with every problem named. */
export function parseServiceConfig<S extends z.ZodType>(
  service: string,
  schema: S,
  env: Record<string, string | undefined>,
): z.output<S> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid ${service} configuration: ${problems}`);
  }
  return parsed.data;
}
