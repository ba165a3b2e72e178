import { Suspense, lazy, useId } from 'react';
import { Box, CircularProgress, FormHelperText, FormLabel, MenuItem, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { SCRIPT_RETURN_TYPES, type ScriptReturnType } from '@pagewright/shared';
import { scriptForReturnType, scriptSyntaxError, type ScriptValue } from './script-rules';

/** The height CodeMirror opens at: its frame keeps it while the editor's code loads. */
const EDITOR_MIN_HEIGHT = 200;

const ScriptCodeEditor = lazy(() =>
  import('./script-code-editor').then((m) => ({ default: m.ScriptCodeEditor })),
);

export interface ScriptEditorProps {
  value: ScriptValue;
  onChange: (value: ScriptValue) => void;
  /** Show 'Required' for an empty script (after a first Confirm). */
  requiredError?: string | undefined;
  autoFocus?: boolean;
}

/**
 * SCRIPT's editor: the return type with its starting template, the code (CodeMirror 6 with
 * JavaScript highlighting, loaded when first shown) and a live syntax check (acorn) shown under the
 * editor and as a lint marker. The script is never run in the browser: it runs in the recorded
 * page, on the worker.
 */
export function ScriptEditor({ value, onChange, requiredError, autoFocus = false }: ScriptEditorProps) {
  const { t } = useTranslation();
  const labelId = useId();
  const errorId = useId();

  const syntaxError = scriptSyntaxError(value.script);
  const errorText = syntaxError?.text ?? requiredError;
  const editorLabel = t('dialogs.script.editor');

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
        data-testid="script-editor"
        aria-labelledby={labelId}
        aria-describedby={errorId}
        sx={{
          border: 1,
          borderColor: errorText !== undefined ? 'error.main' : 'divider',
          borderRadius: 1,
          overflow: 'hidden',
          '& .cm-editor': { minHeight: EDITOR_MIN_HEIGHT, maxHeight: 360, fontSize: 13 },
          '& .cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace' },
          '& .cm-editor.cm-focused': { outline: 'none' },
        }}
      >
        <Suspense
          fallback={
            <Box
              sx={{
                height: EDITOR_MIN_HEIGHT,
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'center',
              }}
            >
              <CircularProgress size={28} aria-label={t('app.loading')} />
            </Box>
          }
        >
          <ScriptCodeEditor
            script={value.script}
            onChange={(script) => onChange({ ...value, script })}
            label={editorLabel}
            autoFocus={autoFocus}
          />
        </Suspense>
      </Box>
      <FormHelperText id={errorId} error={errorText !== undefined} role={syntaxError ? 'alert' : undefined}>
        {errorText ?? t('dialogs.script.help')}
      </FormHelperText>
    </Box>
  );
}
