import { useState, type ChangeEvent, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Link,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Tab,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import UploadFile from '@mui/icons-material/UploadFile';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import {
  BULK_RUN_CSV_MAX_BYTES,
  BULK_RUN_MAX_INPUTS,
  bulkRunProgress,
  type BulkRunSource,
  type CreateBulkRun,
  type ExtractorInput,
} from '@pagewright/shared';
import { errorText } from '../../../lib/api-client';
import { PATHS, pathTo } from '../../../lib/paths';
import { createBulkRun } from '../api/create-bulk-run';
import { bulkRunQueryKey } from '../api/get-bulk-run';
import { useBulkRunList } from '../api/list-bulk-runs';
import { useDatasetChoices, useQueryChoices } from '../api/list-row-sources';
import { csvTooLargeText, isCsvTooLarge, previewCsv, type CsvPreview } from '../bulk-run-csv';

export interface BulkRunExtractor {
  id: string;
  name: string;
  inputs: readonly ExtractorInput[];
}

type ChosenCsv = { fileName: string; text: string; preview: CsvPreview };

/** Recent bulk runs the dialog lists under the form, with links to their pages. */
const RECENT_SHOWN = 5;

const bulkRunLink = (bulkRunId: string) => pathTo(PATHS.bulkRun, { bulkRunId });

function CsvChoice({
  inputs,
  chosen,
  problem,
  onChosen,
}: {
  inputs: readonly ExtractorInput[];
  chosen: ChosenCsv | null;
  problem: string | null;
  onChosen: (chosen: ChosenCsv | null, problem: string | null) => void;
}) {
  const { t } = useTranslation();
  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    // Refused before it is read: a browser tab need not hold a file the API would refuse anyway.
    if (isCsvTooLarge(file)) return onChosen(null, csvTooLargeText());
    const text = await file.text();
    onChosen({ fileName: file.name, text, preview: previewCsv(text, inputs) }, null);
  };
  const shown = problem ?? chosen?.preview.problem ?? null;
  return (
    <Box>
      <Typography variant="body2" color="text.secondary">
        {t('bulk.runs.csv.help', {
          inputs: inputs.map((input) => input.name).join(', '),
          mb: BULK_RUN_CSV_MAX_BYTES / 1024 / 1024,
        })}
      </Typography>
      <Button component="label" variant="outlined" startIcon={<UploadFile />} sx={{ mt: 1.5 }}>
        {t('bulk.runs.csv.choose')}
        <input
          type="file"
          accept=".csv,text/csv"
          hidden
          aria-label={t('bulk.runs.csv.file')}
          onChange={(event) => void choose(event)}
        />
      </Button>
      {chosen && (
        <Box data-testid="csv-preview" sx={{ mt: 1.5 }}>
          <Typography variant="body2">
            {t('bulk.runs.csv.rows', { fileName: chosen.fileName, count: chosen.preview.rowCount })}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('bulk.runs.csv.columns', { columns: chosen.preview.columns.join(', ') })}
          </Typography>
        </Box>
      )}
      {shown && (
        <Alert severity="error" sx={{ mt: 1.5 }}>
          {shown}
        </Alert>
      )}
    </Box>
  );
}

function LinesChoice({
  inputs,
  lines,
  inputName,
  onLines,
  onInputName,
}: {
  inputs: readonly ExtractorInput[];
  lines: string;
  inputName: string;
  onLines: (lines: string) => void;
  onInputName: (name: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Box>
      {inputs.length > 1 && (
        <TextField
          select
          label={t('bulk.runs.lines.input')}
          value={inputName}
          onChange={(event) => onInputName(event.target.value)}
          fullWidth
          margin="dense"
          helperText={t('bulk.runs.lines.input.help')}
        >
          {inputs.map((input) => (
            <MenuItem key={input.name} value={input.name}>
              {input.name}
            </MenuItem>
          ))}
        </TextField>
      )}
      <TextField
        label={t('bulk.runs.lines')}
        value={lines}
        onChange={(event) => onLines(event.target.value)}
        multiline
        minRows={5}
        maxRows={12}
        fullWidth
        margin="dense"
        helperText={t('bulk.runs.lines.count', { count: countLines(lines) })}
      />
    </Box>
  );
}

/** A dataset's or query's rows: each input takes the column of its own name (case aside). */
function TableChoice({
  kind,
  value,
  onChange,
}: {
  kind: 'DATASET' | 'QUERY';
  value: string;
  onChange: (id: string) => void;
}) {
  const { t } = useTranslation();
  const datasets = useDatasetChoices(kind === 'DATASET');
  const queries = useQueryChoices(kind === 'QUERY');
  const list = kind === 'DATASET' ? datasets : queries;
  const options =
    kind === 'DATASET'
      ? (datasets.data ?? []).map((dataset) => ({
          id: dataset.id,
          label: t('bulk.runs.dataset.option', { name: dataset.name, count: dataset.rowCount }),
        }))
      : (queries.data ?? []).map((query) => ({ id: query.id, label: query.name }));
  const label = kind === 'DATASET' ? t('bulk.runs.dataset') : t('bulk.runs.query');
  return (
    <Box>
      <Typography variant="body2" color="text.secondary">
        {t('bulk.runs.table.help')}
      </Typography>
      {list.isPending && <CircularProgress size={24} aria-label={t('app.loading')} sx={{ mt: 1 }} />}
      {list.isError && <Alert severity="error">{errorText(list.error)}</Alert>}
      {list.isSuccess && options.length === 0 && (
        <Typography variant="body2" sx={{ mt: 1 }}>
          {kind === 'DATASET' ? t('bulk.runs.dataset.none') : t('bulk.runs.query.none')}
        </Typography>
      )}
      {options.length > 0 && (
        <TextField
          select
          label={label}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          fullWidth
          margin="dense"
        >
          {options.map((option) => (
            <MenuItem key={option.id} value={option.id}>
              {option.label}
            </MenuItem>
          ))}
        </TextField>
      )}
    </Box>
  );
}

function RecentBulkRuns({ extractorId }: { extractorId: string }) {
  const { t } = useTranslation();
  const list = useBulkRunList(extractorId);
  const recent = list.data?.bulkRuns.slice(0, RECENT_SHOWN) ?? [];
  if (recent.length === 0) return null;
  return (
    <Box sx={{ mt: 2 }}>
      <Typography variant="subtitle2" id="recent-bulk-runs">
        {t('bulk.runs.recent')}
      </Typography>
      <List dense disablePadding aria-labelledby="recent-bulk-runs">
        {recent.map((bulkRun) => (
          <ListItem key={bulkRun.id} disableGutters>
            <ListItemText
              primary={
                <Link component={RouterLink} to={bulkRunLink(bulkRun.id)}>
                  {bulkRun.sourceName}
                </Link>
              }
              secondary={t('bulk.runs.recent.line', {
                status: t(`bulk.runs.status.${bulkRun.status}`),
                percent: Math.round(bulkRunProgress(bulkRun) * 100),
                total: bulkRun.total,
              })}
            />
          </ListItem>
        ))}
      </List>
    </Box>
  );
}

const countLines = (lines: string) => lines.split(/\r?\n/u).filter((line) => line.trim() !== '').length;

/**
 * "Bulk run" of an extractor with inputs (issue 26, item 4): its inputs from a CSV file (previewed
 * here: columns and rows), pasted lines, or a dataset's or query's rows. Start sends them; the API
 * checks every row first and its refusal (naming the row and the input) shows here. On success the
 * bulk run's page opens.
 */
export function BulkRunDialog({ extractor, onClose }: { extractor: BulkRunExtractor; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [source, setSource] = useState<BulkRunSource>('CSV');
  const [csv, setCsv] = useState<ChosenCsv | null>(null);
  const [csvProblem, setCsvProblem] = useState<string | null>(null);
  const [lines, setLines] = useState('');
  const [inputName, setInputName] = useState(extractor.inputs[0]?.name ?? '');
  const [datasetId, setDatasetId] = useState('');
  const [queryId, setQueryId] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const [isStarting, setIsStarting] = useState(false);

  const request = ((): CreateBulkRun | null => {
    switch (source) {
      case 'CSV':
        return csv && csv.preview.problem === null ? { source, fileName: csv.fileName, csv: csv.text } : null;
      case 'LINES':
        return countLines(lines) > 0 ? { source, inputName, lines } : null;
      case 'DATASET':
        return datasetId ? { source, datasetId } : null;
      case 'QUERY':
        return queryId ? { source, queryId } : null;
    }
  })();

  const start = async (event: FormEvent) => {
    event.preventDefault();
    if (!request) return;
    setRefusal(null);
    setIsStarting(true);
    try {
      const created = await createBulkRun(extractor.id, request);
      queryClient.setQueryData(bulkRunQueryKey(created.id), created);
      onClose();
      navigate(bulkRunLink(created.id));
    } catch (error) {
      setRefusal(errorText(error));
    } finally {
      setIsStarting(false);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="bulk-run-title">
      <Box component="form" noValidate onSubmit={(event) => void start(event)}>
        <DialogTitle id="bulk-run-title">{t('bulk.runs.title', { name: extractor.name })}</DialogTitle>
        <DialogContent>
          <DialogContentText variant="body2">
            {t('bulk.runs.help', {
              max: BULK_RUN_MAX_INPUTS.toLocaleString('en-US'),
              inputs: extractor.inputs
                .map((input) => `${input.name} (${t(`inputs.type.${input.type}`)})`)
                .join(', '),
            })}
          </DialogContentText>
          <Tabs
            value={source}
            onChange={(_, value: BulkRunSource) => {
              setSource(value);
              setRefusal(null);
            }}
            aria-label={t('bulk.runs.source')}
            variant="scrollable"
            sx={{ mb: 2 }}
          >
            <Tab value="CSV" label={t('bulk.runs.source.CSV')} />
            <Tab value="LINES" label={t('bulk.runs.source.LINES')} />
            <Tab value="DATASET" label={t('bulk.runs.source.DATASET')} />
            <Tab value="QUERY" label={t('bulk.runs.source.QUERY')} />
          </Tabs>
          {source === 'CSV' && (
            <CsvChoice
              inputs={extractor.inputs}
              chosen={csv}
              problem={csvProblem}
              onChosen={(chosen, problem) => {
                setCsv(chosen);
                setCsvProblem(problem);
                setRefusal(null);
              }}
            />
          )}
          {source === 'LINES' && (
            <LinesChoice
              inputs={extractor.inputs}
              lines={lines}
              inputName={inputName}
              onLines={setLines}
              onInputName={setInputName}
            />
          )}
          {(source === 'DATASET' || source === 'QUERY') && (
            <TableChoice
              kind={source}
              value={source === 'DATASET' ? datasetId : queryId}
              onChange={source === 'DATASET' ? setDatasetId : setQueryId}
            />
          )}
          {refusal && (
            <Alert severity="error" sx={{ mt: 2 }} data-testid="bulk-run-refusal">
              {refusal}
            </Alert>
          )}
          <RecentBulkRuns extractorId={extractor.id} />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('extractors.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={request === null || isStarting}>
            {t('bulk.runs.start')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
