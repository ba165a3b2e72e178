import { randomBytes } from 'node:crypto';
import { startStack } from '../support/stack.js';

/** The F-engine the e2e product trusts (remote-engine mode): tests sign its tokens with the secret. */
export const E2E_FENGINE_ISSUER = 'https://fengine.e2e.example';
export const E2E_FENGINE_AUDIENCE = 'pagewright-e2e';

/** Starts the built product once for all flows; URLs reach the tests through the environment. */
export default async function globalSetup() {
  const fengineSecret = randomBytes(32).toString('hex');
  const stack = await startStack({
    useBuild: true,
    env: {
      FENGINE_JWT_SECRET: fengineSecret,
      FENGINE_JWT_ISSUER: E2E_FENGINE_ISSUER,
      FENGINE_JWT_AUDIENCE: E2E_FENGINE_AUDIENCE,
      // Webhook receivers of the flows listen on this machine (webhooks.e2e.ts).
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    },
  });
  process.env.PW_E2E_FENGINE_JWT_SECRET = fengineSecret;
  process.env.PW_E2E_BASE_URL = stack.apiUrl;
  process.env.PW_E2E_MAIL_URL = stack.mailUrl;
  process.env.PW_E2E_DATABASE_URL = stack.databaseUrl;
  return async () => stack.stop();
}
