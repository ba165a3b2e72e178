import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { ScriptEditor } from './script-editor';
import { SCRIPT_TEMPLATES, scriptForReturnType, scriptSyntaxError, type ScriptValue } from './script-rules';
import { renderDialog } from './test-support';

/** How long the lazily loaded editor may take to appear (seconds on a loaded 2-core CI host). */
const EDITOR_LOAD = { timeout: 20_000 };

function Harness({ initial }: { initial: ScriptValue }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <ScriptEditor value={value} onChange={setValue} />
      <output data-testid="script">{value.script}</output>
    </>
  );
}

describe('ScriptEditor', () => {
  it('checks the syntax as the body of an async function, without running it', () => {
    expect(scriptSyntaxError('const rows = await Promise.resolve([]);\nreturn rows.length;')).toBeNull();
    expect(scriptSyntaxError('return (1 +;')).toEqual({
      text: 'SyntaxError: Unexpected token (1:11)',
      position: 11,
    });
    for (const template of Object.values(SCRIPT_TEMPLATES)) expect(scriptSyntaxError(template)).toBeNull();
  });

  it('shows the error name and message under the editor', async () => {
    renderDialog(<Harness initial={{ script: 'const a = 1;\nreturn a +;', returnType: 'NUMBER' }} />);
    const error = await screen.findByText('SyntaxError: Unexpected token (2:10)');
    expect(error.getAttribute('role')).toBe('alert');
    // CodeMirror loads when the editor is first shown: a 470 kB chunk, slow on a busy machine.
    expect((await screen.findByRole('textbox', { name: 'Script code' }, EDITOR_LOAD)).textContent).toContain(
      'return a +;',
    );
    // The lint marker underlines the offending character in the editor itself.
    await waitFor(() => expect(document.querySelector('.cm-lintRange-error')?.textContent).toBe(';'));
  });

  it('replaces a template, never the user’s code, when the return type changes', async () => {
    expect(scriptForReturnType('', 'TABLE')).toBe(SCRIPT_TEMPLATES.TABLE);
    expect(scriptForReturnType(SCRIPT_TEMPLATES.TEXT, 'NUMBER')).toBe(SCRIPT_TEMPLATES.NUMBER);
    expect(scriptForReturnType('return 42;', 'NUMBER')).toBe('return 42;');

    const { user } = renderDialog(
      <Harness initial={{ script: SCRIPT_TEMPLATES.TEXT, returnType: 'TEXT' }} />,
    );
    await screen.findByRole('textbox', { name: 'Script code' }, EDITOR_LOAD);
    await user.click(screen.getByLabelText(/^Return type/));
    await user.click(within(screen.getByRole('listbox')).getByText('Date and time'));
    expect(screen.getByTestId('script').textContent).toBe(SCRIPT_TEMPLATES.DATETIME);
    expect(screen.getByRole('textbox', { name: 'Script code' }).textContent).toContain(
      'new Date().toISOString()',
    );
  });
});
