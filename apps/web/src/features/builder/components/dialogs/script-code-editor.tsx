import { useEffect, useRef } from 'react';
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
import { scriptSyntaxError } from './script-rules';

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

export interface ScriptCodeEditorProps {
  script: string;
  onChange: (script: string) => void;
  /** The editor's accessible name. */
  label: string;
  autoFocus: boolean;
}

/**
 * CodeMirror 6 with JavaScript highlighting and the syntax check as a lint marker, inside the frame
 * ScriptEditor draws. A module of its own: CodeMirror is the largest library of the SPA, loaded when
 * a SCRIPT dialog first opens.
 */
export function ScriptCodeEditor({ script, onChange, label, autoFocus }: ScriptCodeEditorProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  // The editor is created once; its listener always reaches the latest props through this ref.
  const latest = useRef({ script, onChange });
  useEffect(() => {
    latest.current = { script, onChange };
  });

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const view = new EditorView({
      parent: host,
      state: EditorState.create({
        doc: latest.current.script,
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
          EditorView.contentAttributes.of({ 'aria-label': label }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange(update.state.doc.toString());
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
  }, [autoFocus, label]);

  // A template inserted from outside (return type change) replaces the editor's text.
  useEffect(() => {
    const view = viewRef.current;
    if (!view) return;
    const shown = view.state.doc.toString();
    if (shown !== script) view.dispatch({ changes: { from: 0, to: shown.length, insert: script } });
  }, [script]);

  return <div ref={hostRef} />;
}
