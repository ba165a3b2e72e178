import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  List,
  ListItem,
  Stack,
  Typography,
} from '@mui/material';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import ErrorOutlined from '@mui/icons-material/ErrorOutlined';
import { alpha } from '@mui/material/styles';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  LOCAL_BROWSER_NAME,
  automationErrorText,
  type RunDetail,
  type RunStep,
  type RunStepScreenshotKind,
} from '@pagewright/shared';
import { RunStatusChip } from '../../../components/run-status-chip';
import { errorText } from '../../../lib/api-client';
import { useLiveEvents } from '../../../lib/live-events';
import { runQueryKey, useRun } from '../api/get-run';
import { LocatedByNotice } from './located-by-notice';
import { StepHtmlDialog } from './step-html-dialog';
import { StepPictureDialog } from './step-picture-dialog';
import { formatDateTime, StepValueView } from './step-value';

type OpenEvidence =
  | { kind: 'picture'; sequence: number; shot: RunStepScreenshotKind }
  | { kind: 'html'; sequence: number }
  | null;

/**
 * The index of the step the run failed at: the last one with that sequence (a loop repeats
 * sequences), or the last one that carries an error of its own.
 */
function failingStepIndex(run: RunDetail): number {
  if (run.status !== 'ERROR') return -1;
  const bySequence = run.steps.findLastIndex((step) => step.sequence === run.errorSequence);
  return bySequence >= 0 ? bySequence : run.steps.findLastIndex((step) => step.errorMessage !== null);
}

function StepItem({
  runId,
  step,
  isFailing,
  runErrorMessage,
  onOpen,
}: {
  runId: string;
  step: RunStep;
  isFailing: boolean;
  runErrorMessage: string | null;
  onOpen: (evidence: OpenEvidence) => void;
}) {
  const { t } = useTranslation();
  const type = step.actionType ? t(`dialogs.action.type.${step.actionType}`) : t('runs.step.type.none');
  // The failing step's error reads as the run's (name and code); another step's as it was kept.
  const errorMessage = isFailing ? (runErrorMessage ?? step.errorMessage) : step.errorMessage;
  const hasFailed = errorMessage !== null || isFailing;

  return (
    <ListItem
      divider
      aria-label={t('runs.step.named', { sequence: step.sequence, type })}
      data-testid={`run-step-${step.sequence}`}
      data-failed={hasFailed ? 'true' : undefined}
      sx={{
        display: 'block',
        py: 1.5,
        borderLeft: 3,
        borderLeftColor: hasFailed ? 'error.main' : 'transparent',
        bgcolor: (theme) => (hasFailed ? alpha(theme.palette.error.main, 0.05) : undefined),
      }}
    >
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{ minWidth: 32, fontVariantNumeric: 'tabular-nums' }}
        >
          {step.sequence}
        </Typography>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {type}
        </Typography>
        {step.label && (
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {step.label}
          </Typography>
        )}
        <Box sx={{ flexGrow: 1 }} />
        {hasFailed ? (
          <Chip
            size="small"
            color="error"
            variant="outlined"
            icon={<ErrorOutlined />}
            label={t('runs.step.failed')}
          />
        ) : (
          <Chip
            size="small"
            color="success"
            variant="outlined"
            icon={<CheckCircleOutlined />}
            label={t('runs.step.done')}
          />
        )}
      </Stack>
      <Box sx={{ pl: { sm: 5.5 }, pt: 0.75, display: 'flex', flexDirection: 'column', gap: 1 }}>
        {errorMessage !== null && (
          <Alert severity="error" sx={{ py: 0 }}>
            {isFailing && <strong>{t('runs.step.failed.here')}: </strong>}
            {errorMessage}
          </Alert>
        )}
        {step.locatedBy && (
          <LocatedByNotice runId={runId} sequence={step.sequence} locatedBy={step.locatedBy} />
        )}
        <StepValueView runId={runId} step={step} />
        {(step.hasPageScreenshot || step.hasElementScreenshot || step.hasNormalizedHtml) && (
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
            {step.hasPageScreenshot && (
              <Button
                size="small"
                onClick={() => onOpen({ kind: 'picture', sequence: step.sequence, shot: 'page' })}
              >
                {t('runs.screenshot.page')}
              </Button>
            )}
            {step.hasElementScreenshot && (
              <Button
                size="small"
                onClick={() => onOpen({ kind: 'picture', sequence: step.sequence, shot: 'element' })}
              >
                {t('runs.screenshot.element')}
              </Button>
            )}
            {step.hasNormalizedHtml && (
              <Button size="small" onClick={() => onOpen({ kind: 'html', sequence: step.sequence })}>
                {t('runs.html')}
              </Button>
            )}
          </Stack>
        )}
      </Box>
    </ListItem>
  );
}

function RunTimes({ run }: { run: RunDetail }) {
  const { t } = useTranslation();
  const started = formatDateTime(run.startedAt) ?? run.startedAt;
  const finished = run.finishedAt ? (formatDateTime(run.finishedAt) ?? run.finishedAt) : null;
  return (
    <Typography variant="body2" color="text.secondary" component="p">
      <time dateTime={run.startedAt}>{t('runs.started', { time: started })}</time>
      {finished !== null && run.finishedAt !== null && (
        <>
          {', '}
          <time dateTime={run.finishedAt}>{t('runs.finished', { time: finished })}</time>
        </>
      )}
      {/* Only a deployment with browser hosts says where: "local" everywhere else is noise. */}
      {run.browserName !== null && run.browserName !== LOCAL_BROWSER_NAME && (
        <>
          {', '}
          {t('runs.browser.host', { name: run.browserName })}
        </>
      )}
    </Typography>
  );
}

export interface RunResultsDialogProps {
  runId: string;
  /** The item's name, for the title. */
  name: string;
  onClose: () => void;
}

/**
 * What one run of an item did, step by step, and what each step read. Refreshes every 2 s and on
 * each `run-status` event while the run executes.
 */
export function RunResultsDialog({ runId, name, onClose }: RunResultsDialogProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const run = useRun(runId);
  const [evidence, setEvidence] = useState<OpenEvidence>(null);
  const data = run.data;
  const isExecuting = data?.status === 'EXECUTING';

  useLiveEvents(['run-status'], (event) => {
    if (event.runId === runId) void queryClient.invalidateQueries({ queryKey: runQueryKey(runId) });
  });

  const failing = data ? failingStepIndex(data) : -1;
  const failingSequence = failing >= 0 ? data?.steps[failing]?.sequence : undefined;
  const runError = data?.errorMessage ? automationErrorText(data.errorCode, data.errorMessage) : null;

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="lg" aria-labelledby="run-results-title" scroll="paper">
      <DialogTitle component="div">
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography id="run-results-title" variant="h6" component="h2" sx={{ overflowWrap: 'anywhere' }}>
            {t('runs.title', { name })}
          </Typography>
          {data && <RunStatusChip status={data.status} data-testid="run-status" />}
        </Stack>
        {data && <RunTimes run={data} />}
      </DialogTitle>
      {(run.isPending || isExecuting) && (
        <LinearProgress aria-label={isExecuting ? t('runs.executing') : t('app.loading')} />
      )}
      <DialogContent dividers>
        {run.isError && <Alert severity="error">{errorText(run.error)}</Alert>}
        {isExecuting &&
          (data.waitingForWorker ? (
            <Alert severity="warning" sx={{ mb: 1.5 }}>
              {t('run.waiting.for.worker')}
            </Alert>
          ) : (
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {t('runs.executing')}
            </Typography>
          ))}
        {data?.status === 'ERROR' && runError && (
          <Alert severity="error" sx={{ mb: 1.5 }}>
            {failingSequence !== undefined
              ? t('runs.failed.at', { sequence: failingSequence, errorMessage: runError })
              : t('runs.failed', { errorMessage: runError })}
          </Alert>
        )}
        {data && Object.keys(data.inputs).length > 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1, overflowWrap: 'anywhere' }}>
            {t('runs.inputs', {
              inputs: Object.entries(data.inputs)
                .map(([inputName, value]) => `${inputName} = ${value}`)
                .join(', '),
            })}
          </Typography>
        )}
        {data &&
          (data.steps.length === 0 ? (
            !isExecuting && <Typography color="text.secondary">{t('runs.steps.empty')}</Typography>
          ) : (
            <List disablePadding aria-label={t('runs.steps')}>
              {data.steps.map((step, index) => (
                <StepItem
                  // A loop repeats sequences: the position keeps each run of a step apart.
                  key={index}
                  runId={runId}
                  step={step}
                  isFailing={index === failing}
                  runErrorMessage={runError}
                  onOpen={setEvidence}
                />
              ))}
            </List>
          ))}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} variant="contained" autoFocus>
          {t('runs.close')}
        </Button>
      </DialogActions>
      {evidence?.kind === 'picture' && (
        <StepPictureDialog
          runId={runId}
          sequence={evidence.sequence}
          kind={evidence.shot}
          onClose={() => setEvidence(null)}
        />
      )}
      {evidence?.kind === 'html' && (
        <StepHtmlDialog runId={runId} sequence={evidence.sequence} onClose={() => setEvidence(null)} />
      )}
    </Dialog>
  );
}
