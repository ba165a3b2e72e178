import { useRef, useState } from 'react';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Chip,
  Grid,
  LinearProgress,
  Link,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import {
  MESSAGES,
  PROGRESS_HIDE_DELAY_MS,
  RECOGNITION_MAX_FILES,
  boxProblemText,
  csvFileName,
  formatMessage,
  type RecognitionResult,
} from '@pagewright/shared';
import { PageHeading } from '../../../components/page-heading';
import { PdfDropZone } from '../../../components/pdf-drop-zone';
import { saveBlob } from '../../../lib/file-download';
import { PATHS } from '../../../lib/paths';
import { useTemplateList } from '../../../lib/template-list';
import { toast } from '../../../lib/toast';
import { consolidatedCsv, recognizePdf, textToCsv } from '../api/recognize';
import { ConsolidatedDialog } from './consolidated-dialog';

/** Files sent at once: the server reads one a core; a third keeps them busy between answers. */
export const FILES_AT_ONCE = 3;

type Outcome = { file: File; result: RecognitionResult } | { file: File; error: true };

const saveCsv = (csv: string, name: string) =>
  saveBlob(new Blob([csv], { type: 'text/csv;charset=utf-8' }), name);

/**
 * /statement-recognition-new (data spec §2, §4): PDFs (up to 100) and a template; Process sends
 * them three at a time, each finished file adds its text and advances the progress; at the end
 * the consolidated CSV is fetched for Download all and Show consolidated results.
 */
export function StatementRecognitionPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const templates = useTemplateList();
  const [templateId, setTemplateId] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const [consolidated, setConsolidated] = useState<string | null>(null);
  const [isShowingConsolidated, setIsShowingConsolidated] = useState(false);
  const run = useRef(0);

  const clear = () => {
    run.current += 1;
    setFiles([]);
    setOutcomes([]);
    setProgress(null);
    setConsolidated(null);
  };

  const process = async () => {
    if (!templateId) {
      toast.warning(MESSAGES['recognition.no.template']);
      return;
    }
    const thisRun = (run.current += 1);
    setOutcomes([]);
    setConsolidated(null);
    setProgress(0);
    // Each file's outcome keeps the place the file was given in (answers come in completion order).
    const byIndex: (Outcome | undefined)[] = [];
    const finished = () => byIndex.filter((outcome): outcome is Outcome => outcome !== undefined);
    let next = 0;
    const worker = async () => {
      while (next < files.length && run.current === thisRun) {
        const index = next;
        const file = files[index] as File;
        next += 1;
        try {
          byIndex[index] = { file, result: await recognizePdf(templateId, file) };
        } catch {
          byIndex[index] = { file, error: true };
        }
        if (run.current !== thisRun) return;
        const done = finished();
        setOutcomes(done);
        setProgress((100 * done.length) / files.length);
      }
    };
    await Promise.all(Array.from({ length: Math.min(FILES_AT_ONCE, files.length) }, worker));
    if (run.current !== thisRun) return;
    const done = finished();
    const tokens = done.flatMap((outcome) => ('result' in outcome ? [outcome.result.token] : []));
    if (done.some((outcome) => 'error' in outcome)) toast.error(MESSAGES['recognition.error']);
    else toast.success(MESSAGES['recognition.success']);
    window.setTimeout(() => run.current === thisRun && setProgress(null), PROGRESS_HIDE_DELAY_MS);
    if (tokens.length > 0) {
      try {
        setConsolidated(await consolidatedCsv(tokens));
      } catch {
        toast.error(MESSAGES['recognition.csv.error']);
      }
    }
  };

  const downloadOne = async (result: RecognitionResult) => {
    try {
      saveCsv(await textToCsv(result.token), csvFileName(result.fileName));
    } catch {
      toast.error(MESSAGES['recognition.csv.error']);
    }
  };

  const noTemplates = templates.isSuccess && templates.data.length === 0;
  const isProcessing = progress !== null && progress < 100;
  return (
    <Box>
      <Stack direction="row" sx={{ alignItems: 'center', mb: 2 }}>
        <Box sx={{ flex: 1 }}>
          <PageHeading>{t('statements.title')}</PageHeading>
        </Box>
        <Button onClick={() => void navigate(PATHS.dashboard)}>{t('statements.close')}</Button>
      </Stack>
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 5 }}>
          <Paper variant="outlined" sx={{ p: 2 }}>
            <Stack spacing={2}>
              {noTemplates && (
                <Alert severity="warning">
                  {MESSAGES['template.none']}{' '}
                  <Link component={RouterLink} to={PATHS.templateSettings}>
                    {t('statements.template.settings')}
                  </Link>
                </Alert>
              )}
              {templates.isError && <Alert severity="error">{MESSAGES['template.list.error']}</Alert>}
              <TextField
                select
                label={t('statements.template')}
                value={templateId}
                onChange={(event) => setTemplateId(event.target.value)}
                disabled={isProcessing}
              >
                {(templates.data ?? []).map((template) => (
                  <MenuItem key={template.id} value={template.id}>
                    {template.templateName}
                  </MenuItem>
                ))}
              </TextField>
              {files.length === 0 ? (
                <PdfDropZone
                  label={t('statements.drop', { max: RECOGNITION_MAX_FILES })}
                  maxFiles={RECOGNITION_MAX_FILES}
                  onFiles={setFiles}
                  onRefused={(text) => toast.error(text)}
                  tooManyText={MESSAGES['recognition.too.many.files']}
                  notPdfText={MESSAGES['recognition.not.pdf']}
                />
              ) : (
                <>
                  {progress === null && outcomes.length === 0 && (
                    <Alert severity="info">{t('statements.ready', { count: files.length })}</Alert>
                  )}
                  <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
                    {files.map((file, index) => (
                      <Chip key={`${file.name}-${index}`} label={file.name} size="small" />
                    ))}
                  </Stack>
                  <Stack direction="row" spacing={1}>
                    <Button variant="contained" onClick={() => void process()} disabled={isProcessing}>
                      {t('statements.process')}
                    </Button>
                    {consolidated !== null && (
                      <>
                        <Button onClick={() => saveCsv(consolidated, 'consolidated.csv')}>
                          {t('statements.download.all')}
                        </Button>
                        <Button onClick={() => setIsShowingConsolidated(true)}>
                          {t('statements.consolidated.show')}
                        </Button>
                      </>
                    )}
                    <Button color="inherit" onClick={clear}>
                      {t('statements.clear')}
                    </Button>
                  </Stack>
                </>
              )}
              {progress !== null && (
                <Box>
                  <LinearProgress
                    variant="determinate"
                    value={progress}
                    aria-label={t('statements.processing')}
                  />
                  <Typography variant="caption">
                    {t('statements.progress', { done: outcomes.length, total: files.length })}
                  </Typography>
                </Box>
              )}
            </Stack>
          </Paper>
        </Grid>
        <Grid size={{ xs: 12, md: 7 }}>
          <Stack spacing={2} aria-label={t('statements.texts')}>
            {outcomes.map((outcome, index) => (
              <Paper
                key={`${outcome.file.name}-${index}`}
                variant="outlined"
                sx={{ p: 2 }}
                data-testid="recognition-result"
              >
                <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
                  <Typography variant="subtitle1" component="h2" sx={{ flex: 1 }}>
                    {outcome.file.name}
                  </Typography>
                  {'result' in outcome && (
                    <Button size="small" onClick={() => void downloadOne(outcome.result)}>
                      {t('statements.to.csv')}
                    </Button>
                  )}
                </Stack>
                {'result' in outcome && <TemplateMatchNote result={outcome.result} />}
                {'result' in outcome ? (
                  <Typography
                    component="pre"
                    variant="body2"
                    sx={{ whiteSpace: 'pre-wrap', m: 0, fontFamily: 'inherit' }}
                  >
                    {outcome.result.text}
                  </Typography>
                ) : (
                  <Alert severity="error">{MESSAGES['recognition.error']}</Alert>
                )}
              </Paper>
            ))}
          </Stack>
        </Grid>
      </Grid>
      {isShowingConsolidated && consolidated !== null && (
        <ConsolidatedDialog
          csv={consolidated}
          onDownload={() => saveCsv(consolidated, 'consolidated.csv')}
          onClose={() => setIsShowingConsolidated(false)}
        />
      )}
    </Box>
  );
}

/**
 * Above a file's text: that it does not match the template and why (error), or which boxes of a
 * matching file read doubtfully (warning); nothing for a clean read.
 */
function TemplateMatchNote({ result }: { result: RecognitionResult }) {
  const { t } = useTranslation();
  const failed = result.failedBoxes;
  const isMismatch = !result.matchesTemplate;
  if (!isMismatch && failed.length === 0) return null;
  return (
    <Alert severity={isMismatch ? 'error' : 'warning'} sx={{ mb: 1 }} data-testid="template-match-note">
      {isMismatch && <AlertTitle>{MESSAGES['recognition.mismatch']}</AlertTitle>}
      {isMismatch && (
        <Box component="ul" sx={{ m: 0, pl: 2 }}>
          {result.mismatches.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </Box>
      )}
      {failed.length > 0 && (
        <Typography variant="body2" sx={{ mt: isMismatch ? 1 : 0 }}>
          {formatMessage('recognition.failed.boxes', {
            boxes: failed
              .map(({ page, label, problem }) =>
                t('statements.failed.box', { label, page, problem: boxProblemText(problem) }),
              )
              .join(', '),
          })}
        </Typography>
      )}
    </Alert>
  );
}
