import { parse } from 'acorn';
import type { ScriptReturnType } from '@pagewright/shared';

export interface ScriptValue {
  script: string;
  returnType: ScriptReturnType;
}

/** The starting script of each return type (spec §3): what the engine expects such a script to return. */
export const SCRIPT_TEMPLATES: Record<ScriptReturnType, string> = {
  TEXT: `// Runs in the page. Return the text to keep.
const element = document.querySelector('h1');
return element ? element.textContent.trim() : '';
`,
  NUMBER: `// Runs in the page. Return a number.
const element = document.querySelector('.total');
return element ? Number(element.textContent.replace(/[^0-9.-]/g, '')) : 0;
`,
  DATETIME: `// Runs in the page. Return a Date, an ISO 8601 text or milliseconds since 1970 (UTC).
return new Date().toISOString();
`,
  VOID: `// Runs in the page; the result is ignored.
document.querySelector('button')?.click();
`,
  TABLE: `// Runs in the page. Return the rows: arrays (columns "Column 1".."n") or objects (keys are columns).
return Array.from(document.querySelectorAll('table tr'), (row) =>
  Array.from(row.cells, (cell) => cell.textContent.trim()),
);
`,
};

const TEMPLATE_TEXTS: readonly string[] = Object.values(SCRIPT_TEMPLATES);

/** The script after a return-type change: a new template unless the user wrote their own code. */
export function scriptForReturnType(current: string, returnType: ScriptReturnType): string {
  return current.trim() === '' || TEMPLATE_TEXTS.includes(current) ? SCRIPT_TEMPLATES[returnType] : current;
}

export interface ScriptSyntaxError {
  /** "SyntaxError: Unexpected token (3:5)": the error's name and message. */
  text: string;
  /** Offset in the script. */
  position: number;
}

/**
 * Parses the script as the engine runs it (the body of an async function) without running it:
 * acorn only reads the text.
 */
export function scriptSyntaxError(script: string): ScriptSyntaxError | null {
  try {
    parse(script, {
      ecmaVersion: 'latest',
      sourceType: 'script',
      allowReturnOutsideFunction: true,
      allowAwaitOutsideFunction: true,
    });
    return null;
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    const position = (error as SyntaxError & { pos?: number }).pos ?? 0;
    return { text: `${error.name}: ${error.message}`, position };
  }
}
