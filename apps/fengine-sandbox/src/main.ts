import { loadConfig } from './config.js';
import { startSandbox } from './sandbox.js';

const config = loadConfig();
const sandbox = await startSandbox({
  host: config.FENGINE_SANDBOX_HOST,
  port: config.FENGINE_SANDBOX_PORT,
  databaseUrl: config.FENGINE_SANDBOX_DATABASE_URL,
  adminToken: config.FENGINE_SANDBOX_ADMIN_TOKEN,
  sessionTtlSeconds: config.FENGINE_SANDBOX_SESSION_TTL_SECONDS,
  username: config.FENGINE_SANDBOX_USER,
  password: config.FENGINE_SANDBOX_PASSWORD,
  logLevel: config.LOG_LEVEL,
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    sandbox.app.log.info({ signal }, 'shutting down');
    void sandbox.close().then(() => process.exit(0));
  });
}

sandbox.app.log.info(
  {
    url: sandbox.url,
    user: config.FENGINE_SANDBOX_USER,
    hasFaultSwitches: Boolean(config.FENGINE_SANDBOX_ADMIN_TOKEN),
  },
  'fengine sandbox ready',
);
