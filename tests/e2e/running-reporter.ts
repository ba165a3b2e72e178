import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestCase } from '@playwright/test/reporter';

/**
 * Keeps a file listing the end-to-end tests running right now (PW_RUNNING_TESTS_FILE), so that
 * when the suite's safety cap stops a hung run the summary can say which test hung.
 */
export default class RunningTestsReporter implements Reporter {
  private readonly file = process.env.PW_RUNNING_TESTS_FILE;
  private readonly running = new Map<TestCase, number>();

  onTestBegin(test: TestCase) {
    this.running.set(test, Date.now());
    this.write();
  }

  onTestEnd(test: TestCase) {
    this.running.delete(test);
    this.write();
  }

  printsToStdio() {
    return false;
  }

  private write() {
    if (!this.file) return;
    const lines = [...this.running].map(
      ([test, since]) =>
        `${path.relative(process.cwd(), test.location.file)} › ${test.titlePath().filter(Boolean).slice(1).join(' › ')} (started ${new Date(since).toISOString().slice(11, 19)} UTC)`,
    );
    writeFileSync(this.file, lines.length ? `${lines.join('\n')}\n` : '');
  }
}
