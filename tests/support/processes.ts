import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fromRoot } from './paths.js';

export interface RunningProcess {
  child: ChildProcess;
  logFile: string;
  stop(): Promise<void>;
}

let logDirectory = 'test-logs';

/**
 * Where this process's children log, under .pagewright/ (default test-logs). A benchmark running
 * beside the test suite uses its own, so neither reads (or kills by pid) the other's processes.
 */
export function useLogDirectory(name: string): void {
  logDirectory = name;
}

/** Starts a long-running child with its output in .pagewright/<log directory>/<name>.log. */
export function startProcess(
  name: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): RunningProcess {
  const logDir = fromRoot('.pagewright', logDirectory);
  mkdirSync(logDir, { recursive: true });
  const logFile = path.join(logDir, `${name}.log`);
  // Emptied now, not when the stream opens: readiness is read from this file, and a line left by
  // the previous run's process must not count as this one's.
  writeFileSync(logFile, '');
  const log = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(command, args, { cwd: fromRoot(), env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  return {
    child,
    logFile,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      // A child that ignores SIGTERM is killed 5 s later.
      const killTimer = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(killTimer);
    },
  };
}
