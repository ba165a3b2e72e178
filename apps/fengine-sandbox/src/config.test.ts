import { describe, expect, it } from 'vitest';
import { settingsInEnvExample, settingsReadBy } from '@pagewright/shared/test-support';
import { loadConfig } from './config.js';

/** An operator learns every setting from .env.example (issue 37): none the code reads is missing there. */
describe('.env.example', () => {
  it('lists every setting the fengine-sandbox reads', () => {
    const read = settingsReadBy(loadConfig);
    expect(read.length).toBeGreaterThan(3);
    expect(read.filter((name) => !settingsInEnvExample().has(name))).toEqual([]);
  });
});
