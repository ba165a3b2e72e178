import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { webhookRetryDelay } from './webhook-delivery.processor.js';

describe('webhookRetryDelay', () => {
  const config = loadConfig({
    DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/unused',
    REDIS_URL: 'redis://127.0.0.1:6379',
  });

  it('doubles from the first delay up to the cap', () => {
    const delays = [1, 2, 3, 10, 11].map((attempt) => webhookRetryDelay(config, attempt));
    expect(delays).toEqual([60_000, 120_000, 240_000, 8 * 3600 * 1000, 8 * 3600 * 1000]);
  });

  it('spreads the default 12 attempts over about a day', () => {
    let total = 0;
    for (let attemptsMade = 1; attemptsMade < config.WEBHOOK_MAX_ATTEMPTS; attemptsMade += 1)
      total += webhookRetryDelay(config, attemptsMade);
    expect(total / 3_600_000).toBeGreaterThan(24);
    expect(total / 3_600_000).toBeLessThan(26);
  });
});
