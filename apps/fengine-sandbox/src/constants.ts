/** What a client of the sandbox needs without loading the server (tests' helpers, demos). */

/** The seed's sign-in (FENGINE_SANDBOX_USER / FENGINE_SANDBOX_PASSWORD replace it). */
export const DEFAULT_USERNAME = 'operator@fengine.local';
export const DEFAULT_PASSWORD = 'sandbox-pass';
export const DEFAULT_PORT = 8090;
export const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/pagewright_fengine';

/** The header that carries FENGINE_SANDBOX_ADMIN_TOKEN to /sandbox/faults and /sandbox/reset. */
export const ADMIN_HEADER = 'x-sandbox-admin';
