import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';

/** The SPA's feature folders: each may import shared code, never another feature. */
const webFeatures = readdirSync(new URL('./apps/web/src/features/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * The API's feature modules: each may import lib/, plugins/ and packages, never another module
 * (app.ts, the composition root, hands one module's service to another).
 */
const apiModules = readdirSync(new URL('./apps/api/src/modules/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const PRISMA = ['@prisma/client', '@prisma/adapter-pg', '@pagewright/db'];
const BROWSER = ['playwright', 'playwright-core', '@playwright/test'];
const ENGINE = ['@pagewright/automation'];
const QUEUES_AND_HTTP = ['bullmq', 'ioredis', 'fastify', 'supertest', 'ws'];
const API_NO_BROWSER = 'The API never drives a browser: send the work to the worker.';
const API_ONLY_REPOSITORIES =
  'Only repositories touch Prisma: services and routes ask their repository, and database refusals through apps/api/src/lib/db-errors.ts.';
/** The one file that hands SQL text to a driver's raw call (issue 28). */
const RAW_SQL_RUNNER = 'packages/db/src/datasets/sql-runner.ts';
const RAW_SQL =
  "Build SQL with sql`…` from @pagewright/db (values bound, names through ident()) or Prisma's $queryRaw`…`, and run it through a SqlRunner: only sql-runner.ts hands SQL text to a driver.";

/** import-x/no-restricted-paths zones: each folder of `parent` imports none of its siblings. */
function siblingZones(parent, folders, message) {
  return folders.map((folder) => ({
    target: `${parent}/${folder}`,
    from: parent,
    except: [`./${folder}`],
    message,
  }));
}

/**
 * no-restricted-imports for a list of packages, each also with any sub-path (plus `morePaths` and
 * `morePatterns`).
 */
function forbid(packages, why, morePaths = [], morePatterns = []) {
  return [
    'error',
    {
      paths: [...packages.map((name) => ({ name, message: why })), ...morePaths],
      patterns: [{ group: packages.map((name) => `${name}/*`), message: why }, ...morePatterns],
    },
  ];
}

/**
 * no-restricted-syntax entries for English written straight into the SPA's JSX: text children and
 * the attributes a user reads or hears (labels, titles, hints, screen-reader names), as a string,
 * a template's text or a branch of `a ? 'x' : 'y'` / `a && 'x'`. Only strings with letters count:
 * `·`, `%`, `—` or numbers need no translation. Keys, ids, variants and test ids are not text.
 */
function literalUiText() {
  const words = '/[A-Za-z]/';
  const shownAttribute = `JSXAttribute[name.name=/^(alt|label|title|placeholder|text|primary|secondary|subheader|aria-label|aria-description|aria-roledescription|aria-valuetext|aria-placeholder)$|[a-z](Label|Text|Title)$/]`;
  const strings = [`Literal[value=${words}]`, `TemplateLiteral > TemplateElement[value.raw=${words}]`];
  const holders = [
    ':matches(JSXElement, JSXFragment) > JSXExpressionContainer',
    `${shownAttribute} > JSXExpressionContainer`,
  ];
  const selectors = [`JSXText[value=${words}]`, `${shownAttribute} > Literal[value=${words}]`];
  for (const holder of holders)
    for (const branch of ['', ':matches(ConditionalExpression, LogicalExpression) > '])
      for (const string of strings) selectors.push(`${holder} > ${branch}${string}`);
  const message =
    'UI text goes through the translation table: add a key to apps/web/src/lib/ui-labels.ts (or use MESSAGES of @pagewright/shared) and show t(key).';
  return ['error', ...selectors.map((selector) => ({ selector, message }))];
}

/**
 * no-restricted-syntax entries for fixed sleeps in tests (issue 37): a test waits for the condition
 * it needs, not for a time after which it assumes the condition holds. Playwright's waitForTimeout,
 * a setTimeout inside `new Promise(…)` (`new Promise((r) => setTimeout(r, 500))`, whatever its
 * callback), setTimeout / setInterval / scheduler.wait of timers/promises. Playwright's
 * test.setTimeout and a timer of the scenario outside a promise (`setTimeout(() => child.kill(), ms)`)
 * are no sleeps; a safety net or scenario timer that must sit in a promise says why it is one in an
 * eslint-disable comment.
 */
function fixedSleeps() {
  const message =
    'Wait for a condition (vi.waitFor / expect.poll / waitUntil in tests/support/wait.ts), not a fixed time (issue 37).';
  const inPlaywright =
    'Wait for a condition (expect(locator)…, expect.poll, page.waitForResponse / waitForFunction), not a fixed time (issue 37).';
  // (esquery's regular expressions cannot hold a slash: `.` stands for it.)
  const timersPromises = '/^(node:)?timers.promises$/';
  const selectors = [
    "NewExpression[callee.name='Promise'] CallExpression:matches([callee.name='setTimeout'], [callee.object.name=/^(globalThis|global|window)$/][callee.property.name='setTimeout'])",
    `ImportDeclaration[source.value=${timersPromises}] > ImportSpecifier[imported.name=/^(setTimeout|setInterval|scheduler)$/]`,
    `ImportDeclaration[source.value=${timersPromises}] > :matches(ImportDefaultSpecifier, ImportNamespaceSpecifier)`,
    `ImportExpression[source.value=${timersPromises}]`,
    "CallExpression[callee.object.name='scheduler'][callee.property.name='wait']",
  ];
  return [
    'error',
    {
      selector:
        "CallExpression:matches([callee.name='waitForTimeout'], [callee.property.name='waitForTimeout'])",
      message: inPlaywright,
    },
    ...selectors.map((selector) => ({ selector, message })),
  ];
}

/**
 * Tests never touch the product's own database or Redis keys (issue 37): every test makes the
 * database it uses (@pagewright/db/test-support, tests/support/stack.ts) and a key prefix of its
 * own. A test that reads DATABASE_URL or REDIS_KEY_PREFIX from the environment, or names the
 * product's default database or key prefix, would pass only where `./pagewright start` ran.
 */
function productAddresses() {
  const message =
    "Tests make their own database (createTestDatabase of @pagewright/db/test-support, or a stack) and Redis key prefix; never the product's (issue 37).";
  const settings = '/^(DATABASE_URL|REDIS_KEY_PREFIX)$/';
  const selectors = [
    `MemberExpression[object.object.name='process'][object.property.name='env']:matches([property.name=${settings}], [property.value=${settings}])`,
    `VariableDeclarator[init.object.name='process'][init.property.name='env'] > ObjectPattern > Property[key.name=${settings}]`,
    // postgresql://…@127.0.0.1:5432/pagewright (or localhost), and the default key prefix.
    'Literal[value=/(127[.]0[.]0[.]1|localhost):5432.pagewright(?![A-Za-z0-9_-])/]',
    'TemplateElement[value.raw=/(127[.]0[.]0[.]1|localhost):5432.pagewright(?![A-Za-z0-9_-])/]',
    'Literal[value=/^pagewright:/]',
    'TemplateElement[value.raw=/^pagewright:/]',
  ];
  return selectors.map((selector) => ({ selector, message }));
}

/**
 * The unit and integration projects run their files one after another in a shared worker
 * (vitest.config.ts, `isolate: false`, issue 37): a module mock or a stubbed global of one file
 * would still be in place for the next. Such a file passes its fake in instead.
 */
function sharedWorkerState() {
  const message =
    "Unit and integration files share their worker's modules (isolate: false in vitest.config.ts): pass a fake in, never vi.mock or a stubbed global/env (issue 37).";
  return [
    {
      selector:
        "CallExpression[callee.object.name='vi'][callee.property.name=/^(mock|doMock|unmock|doUnmock|stubGlobal|stubEnv|resetModules)$/]",
      message,
    },
  ];
}

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'packages/db/src/generated/**',
      '.pagewright/**',
      'prisma/engine/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'no-console': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Type-aware rules for the product's TypeScript: a promise nobody awaits loses its error, one
    // handed where nothing awaits it (no-misused-promises) too; an await of a non-promise, a cast
    // that changes nothing and a switch that forgets a member of its union are slips the types
    // see. recommendedTypeChecked in full but require-await (docs/decisions.md), issue 28.
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts'],
    ignores: ['**/*.config.ts', 'apps/*/tsup.config.ts', 'apps/web/vite.config.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      ...tseslint.configs.recommendedTypeCheckedOnly.find(
        (config) => config.name === 'typescript-eslint/recommended-type-checked-only',
      )?.rules,
      // Fastify's plugins and hooks are async to say when they are done, with an await or not.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-floating-promises': [
        'error',
        // react-router's navigate() returns a promise only for data routers' pending navigations.
        { allowForKnownSafeCalls: [{ from: 'package', package: 'react-router', name: 'NavigateFunction' }] },
      ],
    },
  },
  {
    // The architecture, held by the linter: no import cycles, SPA features never import each other.
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...siblingZones(
              './apps/web/src/features',
              webFeatures,
              'SPA features never import each other: move what both need to components/, lib/ or packages/.',
            ),
            // The API's modules, plugins and lib (issue 28): modules use lib/ and plugins/, plugins
            // use lib/, lib/ uses neither; app.ts alone wires modules together.
            ...siblingZones(
              './apps/api/src/modules',
              apiModules,
              'API modules never import each other: move what both need to apps/api/src/lib/, or let app.ts hand one to the other.',
            ),
            {
              target: './apps/api/src/plugins',
              from: './apps/api/src/modules',
              message:
                'Plugins import no module: move what they need to apps/api/src/lib/, or declare it and let app.ts hand it in.',
            },
            {
              target: './apps/api/src/lib',
              from: ['./apps/api/src/modules', './apps/api/src/plugins'],
              message: 'apps/api/src/lib is shared by modules and plugins: it imports neither.',
            },
            // Apps' and packages' own tests keep their helpers at home (packages/db/src/test-support);
            // of tests/, only the fixtures (sites, files) are shared (issue 28).
            {
              target: ['./apps', './packages'],
              from: './tests',
              except: ['./fixtures'],
              message:
                "Tests of an app or package do not reach into tests/: keep the helper in the package's own test-support/ (tests/support may import it from there).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // The API never drives a browser nor runs the engine: browser work belongs to the worker.
    files: ['apps/api/**/*.ts'],
    rules: { 'no-restricted-imports': forbid([...BROWSER, ...ENGINE], API_NO_BROWSER) },
  },
  {
    // Services decide, repositories touch the database (issue 28). The entry replaces the one above
    // for these files, so it repeats its bans.
    files: ['apps/api/src/modules/**/*.ts'],
    ignores: ['apps/api/src/modules/**/*.repository.ts', 'apps/api/src/modules/**/*.test.ts'],
    rules: {
      'no-restricted-imports': forbid(
        [...BROWSER, ...ENGINE],
        API_NO_BROWSER,
        [
          { name: '@prisma/client', message: API_ONLY_REPOSITORIES },
          { name: '@prisma/adapter-pg', message: API_ONLY_REPOSITORIES },
          { name: '@pagewright/db', importNames: ['Prisma', 'PrismaClient'], message: API_ONLY_REPOSITORIES },
        ],
        [{ group: ['@prisma/client/*', '@prisma/adapter-pg/*'], message: API_ONLY_REPOSITORIES }],
      ),
    },
  },
  {
    // The reference F-engine stands for another product: it shares the contract, nothing else.
    files: ['apps/fengine-sandbox/**/*.ts'],
    rules: {
      'no-restricted-imports': forbid(
        [
          ...PRISMA,
          ...BROWSER,
          ...ENGINE,
          '@pagewright/mail',
          '@pagewright/recognition',
          'bullmq',
          'ioredis',
        ],
        'The F-engine sandbox is a separate product: it uses only the connector contract (@pagewright/shared) and its own pg database.',
      ),
    },
  },
  {
    // The contracts are shared by the SPA too: no database, no browser.
    files: ['packages/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': forbid(
        [...PRISMA, ...BROWSER, ...ENGINE],
        'packages/shared holds contracts only: no Prisma, no Playwright.',
      ),
    },
  },
  {
    // Contracts take z from contracts/zod.ts (zod/mini: zod-mini.ts): its z.string() refuses NUL and
    // lone surrogates.
    files: ['packages/shared/src/contracts/**/*.ts'],
    ignores: ['packages/shared/src/contracts/zod.ts', 'packages/shared/src/contracts/zod-mini.ts'],
    rules: {
      'no-restricted-imports': forbid(
        [...PRISMA, ...BROWSER, ...ENGINE],
        'packages/shared holds contracts only: no Prisma, no Playwright.',
        [
          { name: 'zod', message: "Contracts import z from './zod.js' (safe strings for every field)." },
          { name: 'zod/mini', message: "Contracts import zod/mini from './zod-mini.js' (safe strings)." },
        ],
      ),
    },
  },
  {
    // The data layer: Prisma and node-postgres for the apps; it neither drives a browser nor serves
    // HTTP, queues or mail (issue 28).
    files: ['packages/db/**/*.ts'],
    ignores: ['packages/db/src/generated/**'],
    rules: {
      'no-restricted-imports': forbid(
        [...BROWSER, ...ENGINE, ...QUEUES_AND_HTTP, '@pagewright/mail', '@pagewright/recognition'],
        'packages/db is the data layer: no browser, engine, queues, HTTP, mail or recognition.',
      ),
    },
  },
  {
    // Mail is composed and sent here; who sends it (API, worker) and from what data is theirs.
    files: ['packages/mail/**/*.ts'],
    rules: {
      'no-restricted-imports': forbid(
        [...PRISMA, ...BROWSER, ...ENGINE, ...QUEUES_AND_HTTP, '@pagewright/recognition'],
        'packages/mail composes and sends e-mail only: no database, browser, queues or HTTP.',
      ),
    },
  },
  {
    // Recognition reads PDFs and pictures; storing, queueing and serving the results is the apps'.
    files: ['packages/recognition/**/*.ts'],
    rules: {
      'no-restricted-imports': forbid(
        [...PRISMA, ...BROWSER, ...ENGINE, ...QUEUES_AND_HTTP, '@pagewright/mail'],
        'packages/recognition reads documents only: no database, browser, queues, HTTP or mail.',
      ),
    },
  },
  {
    // The engine runs flows in a page; queues, HTTP servers and the database belong to the apps.
    files: ['packages/automation/**/*.ts'],
    ignores: ['packages/automation/**/*.test.ts'],
    rules: {
      'no-restricted-imports': forbid(
        [...QUEUES_AND_HTTP, ...PRISMA],
        'The engine knows nothing of queues, HTTP servers or the database.',
      ),
    },
  },
  {
    // The SPA runs in the browser: no database, no engine, no Node-side queues.
    files: ['apps/web/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': forbid(
        [...PRISMA, ...BROWSER, ...ENGINE, 'bullmq', 'ioredis'],
        'The SPA talks to the API over HTTP only.',
      ),
    },
  },
  {
    // What the SPA shows is read from the translation table (ui-labels, MESSAGES), never written in
    // JSX: one place to reword or translate, and the tests' handles stay the table's (issue 28).
    files: ['apps/web/src/**/*.tsx'],
    ignores: ['apps/web/src/**/*.test.tsx'],
    rules: { 'no-restricted-syntax': literalUiText() },
  },
  {
    // SQL cannot be concatenated (issue 28): dataset SQL is built with sql`…` (values bound, names
    // only through ident(): packages/db/src/datasets/sql.ts), Prisma's with its $queryRaw`…`
    // template. SQL text reaches a driver's raw call in one file only, the runner.
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts'],
    ignores: [RAW_SQL_RUNNER, '**/*.test.{ts,tsx}', 'packages/*/src/test-support/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { property: '$queryRawUnsafe', message: RAW_SQL },
        { property: '$executeRawUnsafe', message: RAW_SQL },
        { object: 'Prisma', property: 'raw', message: RAW_SQL },
      ],
    },
  },
  {
    // …nor is a driver's query() given text put together at run time. (The F-engine sandbox, a
    // separate product with its own plain SQL, keeps its own ways; the SPA has no SQL.)
    files: ['apps/api/src/**/*.ts', 'apps/worker/src/**/*.ts', 'packages/*/src/**/*.ts'],
    ignores: [RAW_SQL_RUNNER, '**/*.test.ts', 'packages/*/src/test-support/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.property.name='query'][arguments.0.type='TemplateLiteral'][arguments.0.expressions.length>0]",
          message: RAW_SQL,
        },
        {
          selector:
            "CallExpression[callee.property.name='query'][arguments.0.type='BinaryExpression'][arguments.0.operator='+']",
          message: RAW_SQL,
        },
      ],
    },
  },
  {
    // Benches and tests use the workspace's packages as their users do, by name (@pagewright/db,
    // @pagewright/worker's public entry), never by a path into their sources (issue 28).
    files: ['bench/**/*.ts', 'tests/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(apps|packages)/',
              message:
                'Import the package by its name (@pagewright/…); what a bench or test needs of an app is exported by its public entry (apps/worker/src/index.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['tests/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.{ts,mjs}', 'prisma/**/*.{ts,mjs}'],
    rules: { 'no-console': 'off' },
  },
  {
    // No fixed sleeps in tests (issue 37): they wait for a condition, through tests/support/wait.ts
    // (the one file that waits on a timer), vi.waitFor / expect.poll or Playwright's waits. The
    // fixture sites stand for slow real sites: their delays are what they serve. No other entry
    // sets no-restricted-syntax for these files: one that does must repeat fixedSleeps() and
    // productAddresses(). Nor does a test read or name the product's database or key prefix.
    files: ['**/*.test.{ts,tsx}', 'tests/**/*.ts'],
    ignores: ['tests/support/wait.ts', 'tests/fixtures/**'],
    rules: { 'no-restricted-syntax': [...fixedSleeps(), ...productAddresses()] },
  },
  {
    // The files of the shared-worker projects (vitest.config.ts) also keep no module mocks.
    files: [
      'packages/*/src/**/*.test.ts',
      'apps/*/src/**/*.test.ts',
      'tests/architecture/**/*.test.ts',
      'tests/integration/**/*.test.ts',
    ],
    rules: { 'no-restricted-syntax': [...fixedSleeps(), ...productAddresses(), ...sharedWorkerState()] },
  },
  {
    files: ['tests/support/wait.ts'],
    rules: { 'no-restricted-syntax': ['error', ...productAddresses()] },
  },
  {
    // Playwright fixtures declare "no dependencies" with an empty pattern.
    files: ['tests/e2e/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
);
