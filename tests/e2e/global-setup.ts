import { startStack } from '../support/stack.js';

/** Starts the built product once for all flows; URLs reach the tests through the environment. */
export default async function globalSetup() {
  const stack = await startStack({ useBuild: true });
  process.env.PW_E2E_BASE_URL = stack.apiUrl;
  process.env.PW_E2E_MAIL_URL = stack.mailUrl;
  process.env.PW_E2E_DATABASE_URL = stack.databaseUrl;
  return async () => stack.stop();
}
