import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import type { ScriptReturnType, StepValue, ValueType } from '@pagewright/shared';
import { AutomationError } from '../flow/automation-error.js';
import { AUTOMATION_CODES } from '../flow/classify-error.js';
import { assertSizeWithinLimit } from '../flow/value-limit.js';
import { cdpSessionOf } from '../page/cdp-session.js';
import { type ActionContext, type ActionOutcome, NONE, fail } from './action-context.js';

type Cell = string | number | null;

function cellOf(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  // What else a page's evaluate gives back: booleans and bigints (functions and symbols arrive as
  // undefined).
  return typeof value === 'boolean' || typeof value === 'bigint' ? String(value) : null;
}

/** A script's TABLE result: an array of arrays (columns "Column 1".."n") or of objects (keys). */
export function tableOf(result: unknown): Extract<StepValue, { kind: 'table' }> {
  if (!Array.isArray(result))
    fail(AUTOMATION_CODES.INVALID_ARGUMENT, 'A TABLE script must return an array of rows');
  let labels: string[];
  let rows: Cell[][];
  if (result.every((row) => Array.isArray(row))) {
    const width = Math.max(0, ...result.map((row: unknown[]) => row.length));
    labels = Array.from({ length: width }, (_, index) => `Column ${index + 1}`);
    rows = result.map((row: unknown[]) => labels.map((_, index) => cellOf(row[index])));
  } else if (result.every((row) => row !== null && typeof row === 'object' && !Array.isArray(row))) {
    const keys = new Set<string>();
    for (const row of result as Record<string, unknown>[]) for (const key of Object.keys(row)) keys.add(key);
    labels = [...keys];
    rows = (result as Record<string, unknown>[]).map((row) => labels.map((key) => cellOf(row[key])));
  } else {
    fail(
      AUTOMATION_CODES.INVALID_ARGUMENT,
      'A TABLE script must return an array of arrays or an array of objects',
    );
  }
  const columns = labels.map((label, index) => {
    const cells = rows.map((row) => row[index]).filter((cell) => cell !== null);
    const type: ValueType =
      cells.length > 0 && cells.every((cell) => typeof cell === 'number') ? 'NUMBER' : 'TEXT';
    return { label, type };
  });
  return { kind: 'table', columns, rows };
}

/** Converts what the page's script returned to the step value of its declared return type. */
export function scriptValueOf(result: unknown, returnType: ScriptReturnType): StepValue {
  switch (returnType) {
    case 'VOID':
      return NONE;
    case 'TEXT':
      return { kind: 'text', value: result === null || result === undefined ? '' : String(cellOf(result)) };
    case 'NUMBER': {
      const value = typeof result === 'string' && result.trim() !== '' ? Number(result) : result;
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        fail(
          AUTOMATION_CODES.INVALID_ARGUMENT,
          `The script returned ${JSON.stringify(result)}, not a number`,
        );
      }
      return { kind: 'number', value };
    }
    case 'DATETIME': {
      const parsed =
        result instanceof Date
          ? DateTime.fromJSDate(result)
          : typeof result === 'number'
            ? DateTime.fromMillis(result)
            : DateTime.fromISO(String(result), { zone: 'UTC' });
      if (!parsed.isValid) {
        fail(AUTOMATION_CODES.INVALID_ARGUMENT, `The script returned ${JSON.stringify(result)}, not a date`);
      }
      return { kind: 'datetime', value: parsed.toUTC().toISO() ?? '' };
    }
    case 'TABLE':
      return tableOf(result);
  }
}

/** Names the size report of a result kept in the page; random, so no page can guess it. */
const OVERSIZE_KEY = `__pagewrightOversize_${randomUUID().replaceAll('-', '')}`;

/**
 * The script as one expression. Its result is measured in the page (as JSON) and, when over the
 * step value limit, only its size comes back: tens of MB would otherwise cross the DevTools
 * protocol and the worker's heap just to be refused. A page that tampers with JSON or TextEncoder
 * only gets its value sent; the worker measures every value again.
 */
function scriptExpression(body: string, maxBytes: number): string {
  return `(async () => {
  const result = await (async () => {\n${body}\n})();
  try {
    const json = JSON.stringify(result);
    // UTF-8 takes at least a byte per UTF-16 unit: past the limit by length, encoding (seconds
    // for hundreds of MB) would only tell by how much.
    if (json !== undefined && json.length > ${maxBytes}) return { ${OVERSIZE_KEY}: json.length };
    const size = json === undefined ? 0 : new TextEncoder().encode(json).length;
    if (size > ${maxBytes}) return { ${OVERSIZE_KEY}: size, exact: true };
  } catch {}
  return result;
})()`;
}

/** The size the page reported instead of a result over the limit (exact, or a lower bound). */
function oversizeOf(result: unknown): { size: number; isLowerBound: boolean } | undefined {
  if (result === null || typeof result !== 'object' || !(OVERSIZE_KEY in result)) return undefined;
  const report = result as Record<string, unknown>;
  const size = report[OVERSIZE_KEY];
  return typeof size === 'number' ? { size, isLowerBound: report.exact !== true } : undefined;
}

/**
 * SCRIPT: the recorded text is the body of an async function run inside the page (never in Node)
 * by page.evaluate, raced against the script time limit (100028 Script Timeout); past the limit
 * the page's running script is terminated (`while (true) {}` would otherwise freeze the page for
 * every later step and for the live view). The expression is evaluated over the DevTools
 * protocol, so it works on pages whose CSP forbids eval.
 */
export async function runScript(context: ActionContext): Promise<ActionOutcome> {
  const script = context.action.options?.script;
  if (!script) fail(AUTOMATION_CODES.INVALID_ARGUMENT, 'SCRIPT needs options.script');
  const limitMs = context.action.options?.timeoutMs ?? context.limits.scriptTimeoutMs;
  const expression = scriptExpression(script.script, context.limits.stepValueMaxBytes);
  // Attached before the script starts: attaching later would wait for the busy main thread.
  const cdp = await cdpSessionOf(context.page);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new AutomationError(
            AUTOMATION_CODES.SCRIPT_TIMEOUT,
            `The script did not finish within ${limitMs} ms`,
          ),
        ),
      limitMs,
    );
  });
  const evaluation: Promise<unknown> = context.page.evaluate(expression);
  // When the time limit wins, the evaluation may still reject later (e.g. when the page closes).
  evaluation.catch(() => undefined);
  try {
    const result = await Promise.race([evaluation, timeout]);
    const oversize = oversizeOf(result);
    if (oversize !== undefined)
      assertSizeWithinLimit(oversize.size, context.limits.stepValueMaxBytes, oversize.isLowerBound);
    return { value: scriptValueOf(result, script.returnType) };
  } catch (error) {
    if (error instanceof AutomationError && error.code === AUTOMATION_CODES.SCRIPT_TIMEOUT)
      await cdp.send('Runtime.terminateExecution').catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
