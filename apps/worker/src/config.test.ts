import { describe, expect, it } from 'vitest';
import { settingsInEnvExample, settingsReadBy } from '@pagewright/shared/test-support';
import { loadBrowserHostConfig, loadConfig } from './config.js';

/** An operator learns every setting from .env.example (issue 37): none the code reads is missing there. */
describe('.env.example', () => {
  it('lists every setting the worker reads', () => {
    const read = settingsReadBy(loadConfig);
    expect(read.length).toBeGreaterThan(3);
    expect(read.filter((name) => !settingsInEnvExample().has(name))).toEqual([]);
  });
  it('the browser host reads only what .env.example lists', () => {
    const missing = settingsReadBy(loadBrowserHostConfig).filter((name) => !settingsInEnvExample().has(name));
    expect(missing).toEqual([]);
  });
});
