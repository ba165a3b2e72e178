#!/usr/bin/env node
// Summarises V8 .cpuprofile files (node --cpu-prof): the functions with the most self time, and
// the packages/files they come from. Usage: node scripts/cpuprofile-top.mjs <file|dir>... [--top N]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 25;
const files = args.flatMap((arg) =>
  statSync(arg).isDirectory()
    ? readdirSync(arg)
        .filter((name) => name.endsWith('.cpuprofile'))
        .map((name) => path.join(arg, name))
    : [arg],
);

/** Where a frame comes from: a package name, the project's own file, or V8's bookkeeping. */
function originOf(url) {
  if (!url) return '(native)';
  const inModules = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/u.exec(url);
  if (inModules) return inModules[1];
  if (url.startsWith('node:')) return url;
  const own = /\/(apps|packages)\/([^/]+)\//u.exec(url);
  return own ? `${own[1]}/${own[2]}` : path.basename(url);
}

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfTicks = new Map();
  for (const id of profile.samples) selfTicks.set(id, (selfTicks.get(id) ?? 0) + 1);
  const totalMs = (profile.endTime - profile.startTime) / 1000;
  const msPerSample = totalMs / Math.max(1, profile.samples.length);
  const byFunction = new Map();
  const byOrigin = new Map();
  let idleMs = 0;
  for (const [id, ticks] of selfTicks) {
    const { callFrame } = byId.get(id);
    const ms = ticks * msPerSample;
    if (callFrame.functionName === '(idle)') {
      idleMs += ms;
      continue;
    }
    const key = `${callFrame.functionName || '(anonymous)'}  ${originOf(callFrame.url)}:${callFrame.lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
    const origin = ['(garbage collector)', '(program)'].includes(callFrame.functionName)
      ? callFrame.functionName
      : originOf(callFrame.url);
    byOrigin.set(origin, (byOrigin.get(origin) ?? 0) + ms);
  }
  const busyMs = totalMs - idleMs;
  const rows = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, ms]) => `| ${ms.toFixed(0)} | ${((ms / busyMs) * 100).toFixed(1)}% | ${name} |`)
      .join('\n');
  console.log(
    `\n## ${path.basename(file)}: ${totalMs.toFixed(0)} ms profiled, ${busyMs.toFixed(0)} ms busy\n`,
  );
  console.log('| self ms | of busy | where |\n|---:|---:|---|\n' + rows(byOrigin));
  console.log('\n| self ms | of busy | function |\n|---:|---:|---|\n' + rows(byFunction));
}
