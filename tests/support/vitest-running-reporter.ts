import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';

/** The time of day (UTC) a test or file started: the list is read when the cap fires, later. */
const clockTime = (at: number) => new Date(at).toISOString().slice(11, 19);

/**
 * Keeps a file listing what Vitest is running right now (PW_RUNNING_TESTS_FILE): the files under
 * way and the tests inside them. When the suite's safety cap stops a hung run, the summary reads it
 * to say which test hung; the last write always reflects the moment the run was stopped.
 */
export default class RunningTestsReporter implements Reporter {
  private readonly file = process.env.PW_RUNNING_TESTS_FILE;
  private readonly modules = new Map<string, number>();
  private readonly tests = new Map<string, { module: string; since: number }>();

  onTestModuleStart(module: TestModule) {
    this.modules.set(this.nameOf(module), Date.now());
    this.write();
  }

  onTestModuleEnd(module: TestModule) {
    this.modules.delete(this.nameOf(module));
    this.write();
  }

  onTestCaseReady(test: TestCase) {
    this.tests.set(`${this.nameOf(test.module)} › ${test.fullName}`, {
      module: this.nameOf(test.module),
      since: Date.now(),
    });
    this.write();
  }

  onTestCaseResult(test: TestCase) {
    this.tests.delete(`${this.nameOf(test.module)} › ${test.fullName}`);
    this.write();
  }

  private nameOf(module: TestModule): string {
    return path.relative(process.cwd(), module.moduleId);
  }

  private write() {
    if (!this.file) return;
    const busy = new Set([...this.tests.values()].map((test) => test.module));
    const lines = [
      ...[...this.tests].map(([name, { since }]) => `${name} (started ${clockTime(since)} UTC)`),
      // A file with no test under way is loading, or in a beforeAll/afterAll hook.
      ...[...this.modules]
        .filter(([name]) => !busy.has(name))
        .map(([name, since]) => `${name}, outside its tests (started ${clockTime(since)} UTC)`),
    ];
    writeFileSync(this.file, lines.length ? `${lines.join('\n')}\n` : '');
  }
}
