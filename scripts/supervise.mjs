#!/usr/bin/env node
// Keeps one long-running process of the product up: `./pagewright start` runs the API and the
// worker under it (scripts/lib/processes.sh); docker compose uses `restart:` policies instead.
//
//   node scripts/supervise.mjs <name> -- <command> [arguments...]
//
// - A child that exits non-zero, or is killed by a signal, is started again after a backoff: 1 s,
//   doubling up to 30 s; once a child has stayed up 60 s, the next backoff starts again at 1 s.
// - A child that exits 0 stopped on purpose: the supervisor exits 0 as well.
// - SIGTERM or SIGINT is forwarded to the child, once; the supervisor exits when the child has,
//   restarting nothing. While it waits to restart, it exits at once.
// - Every start, exit and restart is one JSON line on stdout (the service's log), shaped like the
//   product's pino lines: {"level","time","pid","service":"supervisor","name","msg",...}.
//
// SUPERVISE_BACKOFF_MS, SUPERVISE_MAX_BACKOFF_MS and SUPERVISE_STABLE_MS change the three
// durations (tests shorten them).
import { spawn } from 'node:child_process';

const LEVEL = { info: 30, warn: 40, error: 50 };

function duration(variable, fallback) {
  const value = Number(process.env[variable] ?? fallback);
  if (!Number.isInteger(value) || value < 1) {
    process.stderr.write(`supervise: ${variable} must be a whole number of milliseconds\n`);
    process.exit(2);
  }
  return value;
}

const [name, separator, ...command] = process.argv.slice(2);
if (!name || separator !== '--' || command.length === 0) {
  process.stderr.write('usage: node scripts/supervise.mjs <name> -- <command> [arguments...]\n');
  process.exit(2);
}
const FIRST_BACKOFF_MS = duration('SUPERVISE_BACKOFF_MS', 1_000);
const MAX_BACKOFF_MS = duration('SUPERVISE_MAX_BACKOFF_MS', 30_000);
const STABLE_MS = duration('SUPERVISE_STABLE_MS', 60_000);

function log(level, msg, fields = {}) {
  const line = { level: LEVEL[level], time: Date.now(), pid: process.pid, service: 'supervisor', name };
  process.stdout.write(`${JSON.stringify({ ...line, ...fields, msg })}\n`);
}

let child;
let startedAt = 0;
let restarts = 0;
let backoffMs = FIRST_BACKOFF_MS;
let restartTimer;
let stopSignal;

function start() {
  restartTimer = undefined;
  startedAt = Date.now();
  let hasEnded = false;
  const running = spawn(command[0], command.slice(1), { stdio: 'inherit' });
  child = running;
  const ended = (exitCode, signal, error) => {
    if (hasEnded) return;
    hasEnded = true;
    child = undefined;
    onEnd(exitCode, signal, error);
  };
  running.once('exit', (exitCode, signal) => ended(exitCode, signal));
  // A command that cannot start (not found, not executable) ends like a crash.
  running.once('error', (error) => ended(null, null, error));
  if (running.pid !== undefined)
    log('info', restarts === 0 ? `started ${name}` : `restarted ${name}`, {
      childPid: running.pid,
      restarts,
      command: command.join(' '),
    });
}

function onEnd(exitCode, signal, error) {
  const uptimeMs = Date.now() - startedAt;
  const how = error
    ? `could not start (${error.message})`
    : signal
      ? `killed by ${signal}`
      : `exited with code ${exitCode}`;
  if (stopSignal) {
    log('info', `${name} ${how} after ${stopSignal}; supervisor stopping`, { exitCode, signal, uptimeMs });
    process.exit(0);
  }
  if (exitCode === 0) {
    log('info', `${name} exited with code 0; not restarted`, { exitCode, uptimeMs });
    process.exit(0);
  }
  if (uptimeMs >= STABLE_MS) backoffMs = FIRST_BACKOFF_MS;
  const restartInMs = backoffMs;
  backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
  restarts += 1;
  log('error', `${name} ${how}; restarting in ${restartInMs} ms`, {
    exitCode,
    signal,
    uptimeMs,
    restartInMs,
    restarts,
    exitedAt: new Date().toISOString(),
  });
  restartTimer = setTimeout(start, restartInMs);
}

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    if (stopSignal) return;
    stopSignal = signal;
    if (!child) {
      clearTimeout(restartTimer);
      log('info', `${signal} while ${name} was down; supervisor stopping`);
      process.exit(0);
    }
    log('info', `forwarding ${signal} to ${name}`, { childPid: child.pid });
    child.kill(signal);
  });
}

start();
