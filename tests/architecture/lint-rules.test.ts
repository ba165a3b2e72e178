import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
/**
 * Most rules read the syntax and the imports only: this linter builds no TypeScript program (which
 * took ~90 s of the suite's CPU for the workspace's six programs). The type-aware rules are proven
 * with `typed` on packages/shared, the smallest program.
 */
const eslint = new ESLint({ cwd: root, overrideConfig: [tseslint.configs.disableTypeChecked] });
const typedEslint = new ESLint({ cwd: root });

/**
 * The rule ids ESLint reports for `code` given as the text of `file`, an existing file of the
 * repository (relative to its root): the type-aware rules (`typed`) only parse files their
 * tsconfig holds.
 */
async function violations(file: string, code: string, { typed = false } = {}): Promise<string[]> {
  const [result] = await (typed ? typedEslint : eslint).lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

// Files of a probe written to disk for a moment: an import cycle is only seen between real files.
const probeDirectory = path.join(root, 'packages/shared/src', `lint-probe-${process.pid}`);
afterAll(() => rmSync(probeDirectory, { recursive: true, force: true }));

// The first lint builds the TypeScript programs of the workspace: slow on a busy 2-core machine.
describe('the linter holds the architecture', { timeout: 120_000 }, () => {
  it('SPA features never import each other', async () => {
    expect(
      await violations(
        'apps/web/src/features/runs/api/get-run.ts',
        "import { x } from '../../builder/builder-texts.js';\nexport const y = x;\n",
      ),
    ).toContain('import-x/no-restricted-paths');
    expect(
      await violations(
        'apps/web/src/features/runs/api/get-run.ts',
        "import { x } from './run-step-files.js';\nexport const y = x;\n",
      ),
    ).not.toContain('import-x/no-restricted-paths');
  });

  it('packages/shared imports neither Prisma nor Playwright', async () => {
    for (const name of ['@pagewright/db', '@prisma/client', 'playwright-core']) {
      expect(
        await violations(
          'packages/shared/src/constants.ts',
          `import * as m from '${name}';\nexport const y = m;\n`,
        ),
      ).toContain('no-restricted-imports');
    }
  });

  it('the engine imports no queues, HTTP servers or database; the API never imports the engine', async () => {
    for (const name of ['bullmq', 'ioredis', 'fastify', '@pagewright/db']) {
      expect(
        await violations(
          'packages/automation/src/index.ts',
          `import * as m from '${name}';\nexport const y = m;\n`,
        ),
      ).toContain('no-restricted-imports');
    }
    for (const name of ['@pagewright/automation', 'playwright-core']) {
      expect(
        await violations(
          'apps/api/src/lib/app-error.ts',
          `import * as m from '${name}';\nexport const y = m;\n`,
        ),
      ).toContain('no-restricted-imports');
    }
  });

  it('packages/db, mail and recognition keep to their own work (issue 28)', async () => {
    const banned: Record<string, string[]> = {
      'packages/db/src/index.ts': [
        'playwright-core',
        '@pagewright/automation',
        'fastify',
        'bullmq',
        '@pagewright/mail',
      ],
      'packages/mail/src/index.ts': [
        '@pagewright/db',
        '@prisma/client',
        'playwright-core',
        'fastify',
        'bullmq',
      ],
      'packages/recognition/src/index.ts': [
        '@pagewright/db',
        'playwright-core',
        'fastify',
        'ioredis',
        '@pagewright/mail',
      ],
    };
    for (const [file, names] of Object.entries(banned))
      for (const name of names)
        expect(
          await violations(file, `import * as m from '${name}';\nexport const y = m;\n`),
          `${file} ← ${name}`,
        ).toContain('no-restricted-imports');
    // What each one is for stays allowed.
    for (const [file, name] of [
      ['packages/db/src/index.ts', 'pg'],
      ['packages/mail/src/index.ts', 'nodemailer'],
      ['packages/recognition/src/index.ts', 'sharp'],
    ] as const)
      expect(await violations(file, `import * as m from '${name}';\nexport const y = m;\n`)).not.toContain(
        'no-restricted-imports',
      );
  });

  it('API modules never import each other (issue 28)', async () => {
    expect(
      await violations(
        'apps/api/src/modules/extractor/extractor.routes.ts',
        "import type { BuilderService } from '../builder/builder.service.js';\nexport type B = BuilderService;\n",
      ),
    ).toContain('import-x/no-restricted-paths');
    // Its own files, lib/ and plugins/ stay open to a module.
    expect(
      await violations(
        'apps/api/src/modules/extractor/extractor.routes.ts',
        [
          "import type { ExtractorService } from './extractor.service.js';",
          "import { isUniqueViolation } from '../../lib/db-errors.js';",
          "import { bearerToken } from '../../plugins/auth.js';",
          'export type S = ExtractorService;',
          'export const y = [isUniqueViolation, bearerToken];',
          '',
        ].join('\n'),
      ),
    ).not.toContain('import-x/no-restricted-paths');
  });

  it('API plugins import no module, and lib/ neither modules nor plugins (issue 28)', async () => {
    for (const [file, from] of [
      ['apps/api/src/plugins/auth.ts', '../modules/auth/auth.service.js'],
      ['apps/api/src/lib/app-error.ts', '../modules/user/user.repository.js'],
      ['apps/api/src/lib/app-error.ts', '../plugins/auth.js'],
    ] as const)
      expect(
        await violations(file, `import * as m from '${from}';\nexport const y = m;\n`),
        `${file} ← ${from}`,
      ).toContain('import-x/no-restricted-paths');
    expect(
      await violations(
        'apps/api/src/plugins/auth.ts',
        "import * as m from '../lib/session-callers.js';\nexport const y = m;\n",
      ),
    ).not.toContain('import-x/no-restricted-paths');
  });

  it('API services import no Prisma, and keep the API off the browser; repositories may (issue 28)', async () => {
    const service = 'apps/api/src/modules/schedulers/schedulers.service.ts';
    for (const code of [
      "import { Prisma } from '@pagewright/db';\nexport const y = Prisma;\n",
      "import type { PrismaClient } from '@pagewright/db';\nexport type D = PrismaClient;\n",
      "import { Prisma } from '@prisma/client';\nexport const y = Prisma;\n",
      "import * as m from '@prisma/client/runtime/library';\nexport const y = m;\n",
      "import * as m from 'playwright-core';\nexport const y = m;\n",
    ])
      expect(await violations(service, code), code).toContain('no-restricted-imports');
    expect(
      await violations(
        service,
        [
          "import { hashToken } from '@pagewright/db';",
          "import { isUniqueViolation } from '../../lib/db-errors.js';",
          'export const y = [hashToken, isUniqueViolation];',
          '',
        ].join('\n'),
      ),
    ).not.toContain('no-restricted-imports');
    expect(
      await violations(
        'apps/api/src/modules/schedulers/schedulers.repository.ts',
        "import { Prisma } from '@pagewright/db';\nexport const y = Prisma;\n",
      ),
    ).not.toContain('no-restricted-imports');
  });

  it('refuses import cycles', async () => {
    mkdirSync(probeDirectory, { recursive: true });
    const a = path.join(probeDirectory, 'a.ts');
    writeFileSync(a, "import { b } from './b.js';\nexport const a = () => b;\n");
    writeFileSync(
      path.join(probeDirectory, 'b.ts'),
      "import { a } from './a.js';\nexport const b = () => a;\n",
    );
    const [result] = await eslint.lintFiles([a]);
    expect(result?.messages.map((m) => m.ruleId)).toContain('import-x/no-cycle');
  });

  it('refuses a floating promise in product code', async () => {
    expect(
      await violations(
        'packages/shared/src/constants.ts',
        'async function work() { return 1; }\nexport function start() { work(); }\n',
        { typed: true },
      ),
    ).toContain('@typescript-eslint/no-floating-promises');
  });

  it('holds the type-aware rules: misused promises, awaits of non-promises, idle casts, unexhausted switches (issue 28)', async () => {
    const file = 'packages/shared/src/constants.ts';
    const cases: { rule: string; planted: string; compliant: string }[] = [
      {
        // A promise handed where a void callback is expected: its rejection reaches nobody.
        rule: '@typescript-eslint/no-misused-promises',
        planted: 'export function later(run: () => void) { run(); }\nlater(async () => {});\n',
        compliant:
          'export function later(run: () => void) { run(); }\nlater(() => void Promise.resolve());\n',
      },
      {
        rule: '@typescript-eslint/await-thenable',
        planted: 'export async function one() { return await 1; }\n',
        compliant: 'export async function one() { return await Promise.resolve(1); }\n',
      },
      {
        rule: '@typescript-eslint/no-unnecessary-type-assertion',
        planted: "const name: string = 'a';\nexport const copy = name as string;\n",
        compliant: "const name: unknown = 'a';\nexport const copy = name as string;\n",
      },
      {
        // A default branch does not stand in for a member of the union: a new member must be placed.
        rule: '@typescript-eslint/switch-exhaustiveness-check',
        planted:
          "export function size(kind: 'small' | 'large'): number {\n  switch (kind) {\n    case 'small':\n      return 1;\n    default:\n      return 2;\n  }\n}\n",
        compliant:
          "export function size(kind: 'small' | 'large'): number {\n  switch (kind) {\n    case 'small':\n      return 1;\n    case 'large':\n      return 2;\n  }\n}\n",
      },
    ];
    for (const { rule, planted, compliant } of cases) {
      expect(await violations(file, planted, { typed: true }), rule).toContain(rule);
      expect(await violations(file, compliant, { typed: true }), rule).not.toContain(rule);
    }
  });

  it('SPA screens show text through the translation table, never as JSX literals (issue 28)', async () => {
    const screen = 'apps/web/src/features/statement-templates/components/template-name-dialog.tsx';
    for (const code of [
      'export const A = () => <button>Save</button>;',
      'export const B = () => <input aria-label="Template name" />;',
      'export const C = ({ n }: { n: number }) => <p>{`${n} pages`}</p>;',
      "export const D = ({ on }: { on: boolean }) => <p title={on ? 'On' : 'Off'} />;",
      'export const E = () => <Dialog confirmLabel="Delete" />;\ndeclare function Dialog(p: object): null;',
    ])
      expect(await violations(screen, `${code}\n`), code).toContain('no-restricted-syntax');
    // The same through the table; ids, variants and signs without letters are no text.
    expect(
      await violations(
        screen,
        [
          "import { useTranslation } from 'react-i18next';",
          'export function A({ n }: { n: number }) {',
          '  const { t } = useTranslation();',
          '  return (',
          '    <button type="submit" data-testid="save" aria-label={t(\'templates.save\')}>',
          "      {t('templates.pages', { count: n })} · {`${n}%`}",
          '    </button>',
          '  );',
          '}',
          '',
        ].join('\n'),
      ),
    ).not.toContain('no-restricted-syntax');
    // Tests write the texts they look for.
    expect(
      await violations(
        'apps/web/src/features/statement-templates/components/template-modal.test.tsx',
        'export const A = () => <button>Save</button>;\n',
      ),
    ).not.toContain('no-restricted-syntax');
  });

  it('SQL text reaches a driver only in the runner: no $queryRawUnsafe, no query(`…${x}`) (issue 28)', async () => {
    const prisma = "import type { PrismaClient } from '@pagewright/db';\ndeclare const db: PrismaClient;\n";
    const pool = "import type pg from 'pg';\ndeclare const pool: pg.Pool;\ndeclare const name: string;\n";
    for (const [file, code] of [
      [
        'apps/worker/src/flows/run-store.ts',
        `${prisma}export const a = () => db.$queryRawUnsafe('SELECT 1');\n`,
      ],
      [
        'apps/api/src/lib/db-errors.ts',
        `${prisma}export const a = () => db.$executeRawUnsafe('SELECT 1');\n`,
      ],
      [
        'packages/db/src/datasets/dataset-fill.ts',
        "import { Prisma } from '@pagewright/db';\nexport const a = (t: string) => Prisma.raw(t);\n",
      ],
    ] as const)
      expect(await violations(file, code), file).toContain('no-restricted-properties');
    for (const code of [
      `${pool}export const a = () => pool.query(\`SELECT * FROM \${name}\`);\n`,
      `${pool}export const a = () => pool.query('SELECT * FROM ' + name);\n`,
    ])
      expect(await violations('packages/db/src/datasets/dataset-table.ts', code), code).toContain(
        'no-restricted-syntax',
      );
    // The runner itself; Prisma's own template and constant text with bound values elsewhere.
    const runner = 'packages/db/src/datasets/sql-runner.ts';
    expect(
      await violations(
        runner,
        "import type { PrismaClient } from '../generated/client.js';\ndeclare const db: PrismaClient;\nexport const a = () => db.$queryRawUnsafe('SELECT 1');\n",
      ),
    ).not.toContain('no-restricted-properties');
    expect(
      await violations(runner, `${pool}export const a = () => pool.query(\`SELECT \${name}\`);\n`),
    ).not.toContain('no-restricted-syntax');
    const allowed = await violations(
      'apps/worker/src/flows/run-store.ts',
      `${prisma}${pool}export const a = () => db.$queryRaw\`SELECT \${name}\`;\nexport const b = () => pool.query('SELECT $1::text', [name]);\n`,
    );
    expect(allowed).not.toContain('no-restricted-properties');
    expect(allowed).not.toContain('no-restricted-syntax');
  });

  it('tests wait for a condition, never a fixed time (issue 37)', async () => {
    const integration = 'tests/integration/messages-limits.test.ts';
    const e2e = 'tests/e2e/screen-share.e2e.ts';
    const component = 'apps/web/src/features/dashboard/components/dashboard-grid.test.tsx';
    const playwright = (body: string) =>
      `import { test } from '@playwright/test';\ntest('a', async ({ page }) => {\n${body}\n});\n`;
    for (const [file, code] of [
      [e2e, playwright('  await page.waitForTimeout(1500);')],
      [integration, 'export const a = () => new Promise((resolve) => setTimeout(resolve, 500));\n'],
      [
        integration,
        "export const a = () => new Promise((resolve) => setTimeout(() => resolve('late'), 200));\n",
      ],
      [
        'tests/support/runs-api.ts',
        'export async function a() {\n  await new Promise((r) => setTimeout(r, 250));\n}\n',
      ],
      [component, 'export const a = () => new Promise((r) => globalThis.setTimeout(r, 10));\n'],
      [
        integration,
        "import { setTimeout as sleep } from 'node:timers/promises';\nexport const a = () => sleep(500);\n",
      ],
      [
        integration,
        "import * as timers from 'timers/promises';\nexport const a = () => timers.setTimeout(500);\n",
      ],
      [
        e2e,
        "import { scheduler } from 'node:timers/promises';\nexport const a = () => scheduler.wait(500);\n",
      ],
      [e2e, "export const a = async () => (await import('node:timers/promises')).setTimeout(500);\n"],
    ] as const)
      expect(await violations(file, code), `${file}: ${code}`).toContain('no-restricted-syntax');
    // Waits for a condition, Playwright's test timeout and a timer of the scenario stay allowed; so do
    // the helper's own pause and a fixture site's slow answer.
    for (const [file, code] of [
      [e2e, playwright("  test.setTimeout(60_000);\n  await page.getByText('Done').waitFor();")],
      [
        integration,
        "import { expect, vi } from 'vitest';\nexport const a = (n: () => number) => vi.waitFor(() => expect(n()).toBe(1));\nexport const b = (n: () => number) => expect.poll(n).toBe(1);\n",
      ],
      [
        integration,
        "import { waitUntil } from '../support/wait.js';\nexport const a = (done: () => boolean) => waitUntil(done, { timeoutMs: 5_000 });\n",
      ],
      [integration, 'export const a = (kill: () => void) => setTimeout(kill, 5_000);\n'],
      [
        'tests/support/wait.ts',
        'export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));\n',
      ],
      [
        'tests/fixtures/site/server.ts',
        'export const slow = () => new Promise((r) => setTimeout(r, 400));\n',
      ],
    ] as const)
      expect(await violations(file, code), `${file}: ${code}`).not.toContain('no-restricted-syntax');
    // The product's own timers are not the tests' business.
    expect(
      await violations(
        'apps/api/src/lib/app-error.ts',
        'export const a = () => new Promise((r) => setTimeout(r, 5));\n',
      ),
    ).not.toContain('no-restricted-syntax');
  });

  it("tests never read or name the product's database or key prefix (issue 37)", async () => {
    const unit = 'apps/api/src/lib/session-callers.test.ts';
    const support = 'tests/support/accounts.ts';
    // Put together here, or this file would hold the very addresses the rule refuses.
    const productDatabase = ['5432', 'pagewright'].join('/');
    for (const [file, code] of [
      [unit, 'export const url = process.env.DATABASE_URL;\n'],
      [unit, "export const url = process.env['DATABASE_URL'];\n"],
      [support, 'const { DATABASE_URL } = process.env;\nexport const url = DATABASE_URL;\n'],
      [support, 'export const prefix = process.env.REDIS_KEY_PREFIX;\n'],
      [unit, `export const url = 'postgresql://postgres@127.0.0.1:${productDatabase}';\n`],
      [unit, `export const url = 'postgres://u@localhost:${productDatabase}?schema=public';\n`],
      [
        support,
        `export const url = (user: string) => \`postgresql://\${user}@127.0.0.1:${productDatabase}\`;\n`,
      ],
      [unit, "export const key = 'pagewright:session:1';\n"],
      [support, 'export const key = (id: string) => `pagewright:run:${id}`;\n'],
    ] as const)
      expect(await violations(file, code), `${file}: ${code}`).toContain('no-restricted-syntax');
    // A database or prefix of the test's own, and the product's code, stay allowed.
    for (const [file, code] of [
      [unit, "export const url = 'postgresql://postgres@127.0.0.1:5432/pagewright_unit_1';\n"],
      [unit, 'export const prefix = `pagewright-unit:keys:${Date.now()}:`;\n'],
      [support, 'export const env = { DATABASE_URL: process.env.PW_E2E_DATABASE_URL };\n'],
      ['apps/api/src/lib/app-error.ts', 'export const url = process.env.DATABASE_URL;\n'],
    ] as const)
      expect(await violations(file, code), `${file}: ${code}`).not.toContain('no-restricted-syntax');
  });

  it('files of the shared-worker projects keep no module mocks or stubbed globals (issue 37)', async () => {
    const unit = 'apps/api/src/lib/access-token.test.ts';
    const integration = 'tests/integration/datasets.test.ts';
    for (const [file, code] of [
      [unit, "import { vi } from 'vitest';\nvi.mock('node:fs');\n"],
      [integration, "import { vi } from 'vitest';\nvi.doMock('../support/stack.js', () => ({}));\n"],
      [unit, "import { vi } from 'vitest';\nvi.stubGlobal('fetch', () => undefined);\n"],
      [integration, "import { vi } from 'vitest';\nvi.stubEnv('TZ', 'UTC');\n"],
    ] as const)
      expect(await violations(file, code), `${file}: ${code}`).toContain('no-restricted-syntax');
    // Fake timers restored after each test, and the SPA's component files (each in a context of
    // its own), stay allowed.
    for (const [file, code] of [
      [unit, "import { vi } from 'vitest';\nvi.useFakeTimers({ toFake: ['Date'] });\nvi.useRealTimers();\n"],
      [
        'apps/web/src/features/dashboard/components/dashboard-grid.test.tsx',
        "import { vi } from 'vitest';\nvi.mock('./x.js');\n",
      ],
    ] as const)
      expect(await violations(file, code), `${file}: ${code}`).not.toContain('no-restricted-syntax');
  });

  it('benches and tests import packages by name; package tests keep their helpers at home (issue 28)', async () => {
    for (const source of [
      '../apps/worker/src/flows/run-store.js',
      '../packages/db/src/index.js',
      '../packages/shared/src/index.js',
    ])
      expect(
        await violations('bench/datasets.bench.ts', `import * as m from '${source}';\nexport const y = m;\n`),
        source,
      ).toContain('no-restricted-imports');
    expect(
      await violations(
        'bench/datasets.bench.ts',
        "import { createRunStore } from '@pagewright/worker';\nimport { datasetTable } from '@pagewright/db';\nimport { startStack } from '../tests/support/stack.js';\nexport const y = [createRunStore, datasetTable, startStack];\n",
      ),
    ).not.toContain('no-restricted-imports');
    // The suite's own tests too: what they run of the worker comes through its public entry.
    expect(
      await violations(
        'tests/integration/maintenance.test.ts',
        "import { purgeExpiredSessions } from '../../apps/worker/src/processors/purge-expired-sessions.processor.js';\nexport const y = purgeExpiredSessions;\n",
      ),
    ).toContain('no-restricted-imports');
    expect(
      await violations(
        'tests/integration/maintenance.test.ts',
        "import { purgeExpiredSessions } from '@pagewright/worker';\nexport const y = purgeExpiredSessions;\n",
      ),
    ).not.toContain('no-restricted-imports');
    const packageTest = 'packages/db/src/datasets/dataset-query.test.ts';
    expect(
      await violations(
        packageTest,
        "import { createTestDatabase } from '../../../../tests/support/test-database.js';\nexport const y = createTestDatabase;\n",
      ),
    ).toContain('import-x/no-restricted-paths');
    expect(
      await violations(
        packageTest,
        "import { createTestDatabase } from '../test-support/test-database.js';\nexport const y = createTestDatabase;\n",
      ),
    ).not.toContain('import-x/no-restricted-paths');
    // The fixture sites and files are shared test data.
    expect(
      await violations(
        'packages/automation/src/page/page-probe.test.ts',
        "import { startFixtureSite } from '../../../../tests/fixtures/site/server.js';\nexport const y = startFixtureSite;\n",
      ),
    ).not.toContain('import-x/no-restricted-paths');
  });
});
