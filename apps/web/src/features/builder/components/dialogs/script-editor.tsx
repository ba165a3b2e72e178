import { useEffect, useId, useRef } from 'react';
import { Box, FormHelperText, FormLabel, MenuItem, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { parse } from 'acorn';
import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  completionKeymap,
} from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { javascript } from '@codemirror/lang-javascript';
import {
  bracketMatching,
  defaultHighlightStyle,
  indentOnInput,
  syntaxHighlighting,
} from '@codemirror/language';
import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, drawSelection, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import { SCRIPT_RETURN_TYPES, type ScriptReturnType } from '@pagewright/shared';

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

const syntaxLinter = linter(
  (view): Diagnostic[] => {
    const script = view.state.doc.toString();
    const error = scriptSyntaxError(script);
    if (!error) return [];
    const from = Math.min(error.position, script.length);
    return [{ from, to: Math.min(from + 1, script.length), severity: 'error', message: error.text }];
  },
  { delay: 250 },
);

export interface ScriptEditorProps {
  value: ScriptValue;
  onChange(value: ScriptValue): void;
  /** Show 'Required' for an empty script (after a first Confirm). */
  requiredError?: string | undefined;
  autoFocus?: boolean;
}

/**
 * SCRIPT's editor: CodeMirror 6 with JavaScript highlighting, the return type with its starting
 * template, and a live syntax check (acorn) shown under the editor and as a lint marker. The script
 * is never run in the browser: it runs in the recorded page, on the worker.
 */
export function ScriptEditor({ value, onChange, requiredError, autoFocus = false }: ScriptEditorProps) {
  const { t } = useTranslation();
  const labelId = useId();
  const errorId = useId();
  const hostRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  // The editor is created once; its listener always reaches the latest props through this ref.
  const latest = useRef({ value, onChange });
  useEffect(() => {
    latest.current = { value, onChange };
  });

  const syntaxError = scriptSyntaxError(value.script);
  const errorText = syntaxError?.text ?? requiredError;
  const editorLabel = t('dialogs.script.editor');

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const view = new EditorView({
      parent: host,
      state: EditorState.create({
        doc: latest.current.value.script,
        extensions: [
          lineNumbers(),
          history(),
          drawSelection(),
          highlightActiveLine(),
          indentOnInput(),
          bracketMatching(),
          closeBrackets(),
          autocompletion(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          javascript(),
          syntaxLinter,
          lintGutter(),
          keymap.of([
            ...closeBracketsKeymap,
            ...defaultKeymap,
            ...historyKeymap,
            ...completionKeymap,
            indentWithTab,
          ]),
          EditorView.contentAttributes.of({ 'aria-label': editorLabel }),
          EditorView.updateListener.of((update) => {
            if (!update.docChanged) return;
            const { value: current, onChange: change } = latest.current;
            change({ ...current, script: update.state.doc.toString() });
          }),
        ],
      }),
    });
    viewRef.current = view;
    if (autoFocus) view.focus();
    return () => {
      view.destroy();
      viewRef.current = null;
    };
  }, [autoFocus, editorLabel]);

  // A template inserted from outside (return type change) replaces the editor's text.
  useEffect(() => {
    const view = viewRef.current;
    if (!view) return;
    const shown = view.state.doc.toString();
    if (shown !== value.script)
      view.dispatch({ changes: { from: 0, to: shown.length, insert: value.script } });
  }, [value.script]);

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <TextField
        select
        label={t('dialogs.script.return.type')}
        value={value.returnType}
        onChange={(event) => {
          const returnType = event.target.value as ScriptReturnType;
          onChange({ returnType, script: scriptForReturnType(value.script, returnType) });
        }}
      >
        {SCRIPT_RETURN_TYPES.map((type) => (
          <MenuItem key={type} value={type}>
            {t(`dialogs.script.type.${type}`)}
          </MenuItem>
        ))}
      </TextField>
      <FormLabel id={labelId} error={errorText !== undefined} sx={{ mt: 1 }}>
        {editorLabel}
      </FormLabel>
      <Box
        ref={hostRef}
        data-testid="script-editor"
        aria-labelledby={labelId}
        aria-describedby={errorId}
        sx={{
          border: 1,
          borderColor: errorText !== undefined ? 'error.main' : 'divider',
          borderRadius: 1,
          overflow: 'hidden',
          '& .cm-editor': { minHeight: 200, maxHeight: 360, fontSize: 13 },
          '& .cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace' },
          '& .cm-editor.cm-focused': { outline: 'none' },
        }}
      />
      <FormHelperText id={errorId} error={errorText !== undefined} role={syntaxError ? 'alert' : undefined}>
        {errorText ?? t('dialogs.script.help')}
      </FormHelperText>
    </Box>
  );
}
