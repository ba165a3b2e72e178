import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * What a service's typed configuration reads: `load` (an app's loadConfig) is given an environment
 * that notes every name asked for and answers none, so the list is the schema's own, whatever it
 * requires (a refusal of the empty environment is expected and ignored).
 * @internal For tests.
 */
export function settingsReadBy(load: (env: NodeJS.ProcessEnv) => unknown): string[] {
  const read = new Set<string>();
  const env = new Proxy<NodeJS.ProcessEnv>(
    {},
    {
      get(_target, name) {
        if (typeof name === 'string') read.add(name);
        return undefined;
      },
    },
  );
  try {
    load(env);
  } catch {
    // Required settings (JWT_SECRET, BROWSER_HOST_TOKEN) are missing: the reads were still made.
  }
  return [...read].filter((name) => /^[A-Z][A-Z0-9_]*$/u.test(name)).sort();
}

/**
 * The settings `.env.example` names, set (`NAME=value`) or shown commented out (`# NAME=value`).
 * @internal For tests.
 */
export function settingsInEnvExample(): Set<string> {
  const file = path.resolve(import.meta.dirname, '../../../../.env.example');
  return new Set(
    readFileSync(file, 'utf8')
      .split('\n')
      .map((line) => /^#?\s*([A-Z][A-Z0-9_]*)=/u.exec(line)?.[1])
      .filter((name): name is string => name !== undefined),
  );
}
