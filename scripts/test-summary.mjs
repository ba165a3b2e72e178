#!/usr/bin/env node
// Sums the test suites of `./pagewright test` from their machine-readable reports and prints one
// line per suite, the failed tests, and finally the single line `N passed, N failed, N skipped`.
// Exits 1 when anything failed. A suite whose report is missing, or that exited non-zero without
// a failed test in its report (a crash, a global-setup error, a time-out), counts as one failure.
//
// Usage: node scripts/test-summary.mjs [--check NAME EXIT] [--vitest REPORT EXIT]
//                                      [--playwright REPORT EXIT] ...
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const TIMEOUT_EXIT = 124; // what `timeout` returns when it had to stop the suite

function parseArgs(argv) {
  const suites = [];
  for (let i = 0; i < argv.length; i += 3) {
    const [kind, target, exit] = argv.slice(i, i + 3);
    if (!['--check', '--vitest', '--playwright'].includes(kind) || exit === undefined) {
      throw new Error(
        `expected --check|--vitest|--playwright <name|report> <exit code>, got: ${argv.slice(i).join(' ')}`,
      );
    }
    suites.push({ kind: kind.slice(2), target, exitCode: Number(exit) });
  }
  return suites;
}

function emptyResult(label) {
  return { label, passed: 0, failed: 0, skipped: 0, failures: [], notes: [], files: [], running: null };
}

/** How many of the slowest test files the summary lists, so that growth is seen run after run. */
const SLOWEST_FILES_SHOWN = 15;

/** What the running-tests reporter last wrote beside the report (see tests/support). */
function runningTests(reportFile) {
  const file = reportFile.replace(/\.json$/u, '.running.txt');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

function readReport(file, result) {
  if (!existsSync(file)) {
    result.failed += 1;
    result.failures.push(
      `no report at ${path.relative(process.cwd(), file)}: the suite did not run to its end`,
    );
    return undefined;
  }
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    result.failed += 1;
    result.failures.push(`unreadable report ${file}: ${error.message}`);
    return undefined;
  }
}

function firstLine(text) {
  const plain = stripVTControlCharacters(String(text ?? ''));
  return plain.split('\n').find((line) => line.trim() !== '') ?? '';
}

function summariseCheck({ target, exitCode }) {
  const result = emptyResult(target);
  if (exitCode === 0) result.passed = 1;
  else if (exitCode === TIMEOUT_EXIT) {
    result.failed = 1;
    result.notes.push('stopped by its safety cap');
    result.failures.push(
      `${target} was stopped by its safety cap (scripts/lib/tests.sh); its output is above`,
    );
  } else {
    result.failed = 1;
    result.failures.push(`${target} failed (exit ${exitCode}); its output is above`);
  }
  return result;
}

// Vitest's json reporter (jest-compatible shape).
function summariseVitest({ target, exitCode }) {
  const result = emptyResult('unit + integration (vitest)');
  const report = readReport(target, result);
  if (report) {
    result.passed = report.numPassedTests ?? 0;
    result.failed = report.numFailedTests ?? 0;
    result.skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    const cwd = process.cwd();
    for (const file of report.testResults ?? []) {
      const name = path.relative(cwd, file.name ?? '');
      if (file.startTime && file.endTime)
        result.files.push({ name, seconds: (file.endTime - file.startTime) / 1000 });
      const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
      for (const test of failedTests) {
        result.failures.push(
          `${name} › ${test.fullName || test.title}: ${firstLine(test.failureMessages?.[0])}`,
        );
      }
      // A file that fails to load or whose hooks throw has no failed test of its own.
      if (file.status === 'failed' && failedTests.length === 0) {
        result.failed += 1;
        result.failures.push(`${name}: ${firstLine(file.message) || 'the file failed outside its tests'}`);
      }
    }
    if (report.success === false && result.failed === 0) {
      result.failed += 1;
      result.failures.push('vitest reported the run as failed (no test files found?)');
    }
  }
  return finishWithExitCode(result, exitCode, target);
}

/** Seconds per spec file: the durations of every try of every test in it. */
function collectPlaywrightFiles(suite, seconds) {
  for (const spec of suite.specs ?? []) {
    const file = spec.file ?? suite.file;
    for (const test of spec.tests ?? [])
      for (const run of test.results ?? [])
        seconds.set(file, (seconds.get(file) ?? 0) + (run.duration ?? 0) / 1000);
  }
  for (const child of suite.suites ?? []) collectPlaywrightFiles(child, seconds);
}

function collectPlaywrightFailures(suite, titles, failures) {
  const here = suite.title ? [...titles, suite.title] : titles;
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) {
      if (test.status !== 'unexpected') continue;
      const lastResult = test.results?.at(-1);
      const project = test.projectName ? `[${test.projectName}] ` : '';
      failures.push(
        `${project}${[...here, spec.title].join(' › ')}: ${firstLine(lastResult?.error?.message)}`,
      );
    }
  }
  for (const child of suite.suites ?? []) collectPlaywrightFailures(child, here, failures);
}

// Playwright's json reporter: stats count tests by outcome; errors are failures outside tests
// (global setup, no tests found, a config error).
function summarisePlaywright({ target, exitCode }) {
  const result = emptyResult('end-to-end (playwright)');
  const report = readReport(target, result);
  if (report) {
    const stats = report.stats ?? {};
    result.passed = (stats.expected ?? 0) + (stats.flaky ?? 0);
    result.failed = stats.unexpected ?? 0;
    result.skipped = stats.skipped ?? 0;
    if (stats.flaky) result.notes.push(`${stats.flaky} flaky (passed on retry)`);
    for (const suite of report.suites ?? []) collectPlaywrightFailures(suite, [], result.failures);
    const errors = report.errors ?? [];
    for (const error of errors)
      result.failures.push(`outside the tests: ${firstLine(error.message ?? error)}`);
    if (errors.length > 0 && result.failed === 0) result.failed += 1;
    const seconds = new Map();
    for (const suite of report.suites ?? []) collectPlaywrightFiles(suite, seconds);
    const testDir = report.config?.rootDir ?? process.cwd();
    for (const [file, total] of seconds)
      result.files.push({ name: path.relative(process.cwd(), path.resolve(testDir, file)), seconds: total });
  }
  return finishWithExitCode(result, exitCode, target);
}

function finishWithExitCode(result, exitCode, reportFile) {
  if (exitCode === TIMEOUT_EXIT) {
    result.notes.push('stopped by its safety cap');
    const running = reportFile ? runningTests(reportFile) : [];
    result.failures.push(
      running.length
        ? `stopped by its safety cap (scripts/lib/tests.sh) while running: ${running.join('; ')}`
        : 'stopped by its safety cap (scripts/lib/tests.sh) with no test running (set-up or tear-down hung)',
    );
  }
  if (exitCode !== 0 && result.failed === 0) {
    result.failed += 1;
    result.failures.push(
      `exited with code ${exitCode} although its report shows no failure; its output is above`,
    );
  }
  return result;
}

const summarise = { check: summariseCheck, vitest: summariseVitest, playwright: summarisePlaywright };

function main() {
  const suites = parseArgs(process.argv.slice(2));
  const results = suites.map((suite) => summarise[suite.kind](suite));
  const width = Math.max(...results.map((result) => result.label.length), 10);
  const lines = [];

  for (const result of results) {
    const verdict = result.failed > 0 ? 'FAILED' : 'ok';
    const notes = result.notes.length ? `  (${result.notes.join('; ')})` : '';
    lines.push(
      // Not the closing line's "N passed, N failed" form: only the total may read like that.
      `  ${result.label.padEnd(width)}  ${verdict.padEnd(6)}  passed ${result.passed} · failed ${result.failed} · skipped ${result.skipped}${notes}`,
    );
  }
  const slowest = results
    .flatMap((result) => result.files.map((file) => ({ ...file, suite: result.label })))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, SLOWEST_FILES_SHOWN);
  if (slowest.length) {
    lines.push('', `Slowest test files:`);
    for (const file of slowest) lines.push(`  ${file.seconds.toFixed(1).padStart(6)} s  ${file.name}`);
  }
  const failures = results.flatMap((result) =>
    result.failures.map((failure) => `  ✗ ${result.label}: ${failure}`),
  );
  if (failures.length) lines.push('', 'Failures:', ...failures);

  const total = results.reduce(
    (sum, result) => ({
      passed: sum.passed + result.passed,
      failed: sum.failed + result.failed,
      skipped: sum.skipped + result.skipped,
    }),
    { passed: 0, failed: 0, skipped: 0 },
  );
  lines.push('', `${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
  process.stdout.write(`${lines.join('\n')}\n`);
  process.exitCode = total.failed > 0 || results.length === 0 ? 1 : 0;
}

main();
