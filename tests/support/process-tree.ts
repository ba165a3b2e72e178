import { readFileSync, readdirSync } from 'node:fs';

/** Every running process's parent, read from /proc (Linux). */
function parentsOf(): Map<number, number> {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/u.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: the fields start after its last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // gone meanwhile
    }
  }
  return parents;
}

/** A process and all its descendants (a worker and its recognition children). */
export function processTree(rootPid: number): number[] {
  const parents = parentsOf();
  const tree = new Set([rootPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, parent] of parents)
      if (tree.has(parent) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
  }
  return [...tree];
}

/** The direct children of a process. */
export function childPids(parentPid: number): number[] {
  return [...parentsOf()].filter(([, parent]) => parent === parentPid).map(([pid]) => pid);
}

/** Whether a process runs (a zombie, dead but not yet reaped, does not). */
export function isRunning(pid: number): boolean {
  try {
    return !/^State:\s+Z/mu.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** RSS of a process and all its descendants, in bytes. */
export function treeRss(rootPid: number): number {
  let total = 0;
  for (const pid of processTree(rootPid)) {
    try {
      const match = /VmRSS:\s+(\d+) kB/u.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      total += Number(match?.[1] ?? 0) * 1024;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/** Samples a process tree's RSS every `everyMs` until stopped: its value before and its peak. */
export function sampleTreeRss(rootPid: number, everyMs = 50): { before: number; stop: () => number } {
  const before = treeRss(rootPid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, treeRss(rootPid));
  }, everyMs);
  return {
    before,
    stop: () => {
      clearInterval(sampler);
      return Math.max(peak, treeRss(rootPid));
    },
  };
}
