import { useState, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Link,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import Download from '@mui/icons-material/Download';
import { useTranslation } from 'react-i18next';
import type { RunStep, StepValue, ValueType } from '@pagewright/shared';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { downloadRunStepFile, runStepFilePath, type TableCell as FileCell } from '../api/run-step-files';
import { useBlobUrl } from '../hooks/use-blob-url';

/** Tables show this many rows; the rest is in the data set the run fills. */
export const TABLE_PREVIEW_ROWS = 50;

type TableValue = Extract<StepValue, { kind: 'table' }>;

/** Numbers in the browser's locale, without rounding away the digits the page showed. */
export function formatNumber(value: number): string {
  return new Intl.NumberFormat(undefined, { maximumFractionDigits: 20 }).format(value);
}

/** A local date-time in the browser's locale; null for a text that is no date. */
export function formatDateTime(iso: string): string | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' }).format(date);
}

function formatSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let size = bytes;
  let unit = 0;
  while (size >= 1024 && unit < units.length - 1) {
    size /= 1024;
    unit += 1;
  }
  return `${new Intl.NumberFormat(undefined, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(size)} ${units[unit]}`;
}

/** Saves a file of the run; the pending state keeps a second click from starting a second save. */
function useDownload(runId: string, sequence: number) {
  const [isSaving, setIsSaving] = useState(false);
  const save = async (fallbackName: string, cell?: FileCell) => {
    if (isSaving) return;
    setIsSaving(true);
    try {
      await downloadRunStepFile(runId, sequence, fallbackName, cell);
    } catch (error) {
      toast.error(errorText(error));
    } finally {
      setIsSaving(false);
    }
  };
  return { isSaving, save };
}

function DownloadButton({
  runId,
  sequence,
  fileName,
}: {
  runId: string;
  sequence: number;
  fileName: string;
}) {
  const { t } = useTranslation();
  const { isSaving, save } = useDownload(runId, sequence);
  return (
    <Button
      size="small"
      variant="outlined"
      startIcon={isSaving ? <CircularProgress size={16} /> : <Download />}
      disabled={isSaving}
      onClick={() => void save(fileName)}
      sx={{ alignSelf: 'flex-start', textTransform: 'none' }}
    >
      {t('runs.download', { fileName })}
    </Button>
  );
}

function DateTimeText({ iso }: { iso: string }) {
  const { t } = useTranslation();
  const local = formatDateTime(iso);
  if (local === null) return <Typography variant="body2">{iso}</Typography>;
  return (
    <Tooltip title={t('runs.value.iso', { iso })}>
      <Typography variant="body2" component="time" dateTime={iso} tabIndex={0}>
        {local}
      </Typography>
    </Tooltip>
  );
}

function FileCellLink({
  runId,
  sequence,
  cell,
  fileName,
  columnLabel,
}: {
  runId: string;
  sequence: number;
  cell: FileCell;
  fileName: string;
  columnLabel: string;
}) {
  const { t } = useTranslation();
  const { isSaving, save } = useDownload(runId, sequence);
  return (
    <Link
      component="button"
      type="button"
      variant="body2"
      disabled={isSaving}
      aria-label={t('runs.download.cell', { fileName, row: cell.row + 1, column: columnLabel })}
      onClick={() => void save(fileName, cell)}
      sx={{ textAlign: 'left', wordBreak: 'break-all' }}
    >
      {fileName}
    </Link>
  );
}

function cellText(value: string | number | null, type: ValueType): ReactNode {
  if (value === null || value === '') return '—';
  if (typeof value === 'number') return formatNumber(value);
  if (type === 'DATETIME') return <DateTimeText iso={value} />;
  return value;
}

function TableView({ runId, step, value }: { runId: string; step: RunStep; value: TableValue }) {
  const { t } = useTranslation();
  if (value.rows.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {t('runs.value.table.empty')}
      </Typography>
    );
  }
  const shown = value.rows.slice(0, TABLE_PREVIEW_ROWS);
  const files = new Map(step.tableFiles.map((file) => [`${file.row}:${file.column}`, file.fileName]));
  return (
    <Box>
      <TableContainer sx={{ maxHeight: 420, border: 1, borderColor: 'divider', borderRadius: 1 }}>
        <Table
          size="small"
          stickyHeader
          aria-label={t('runs.value.table.caption', { sequence: step.sequence })}
        >
          <TableHead>
            <TableRow>
              {value.columns.map((column, index) => (
                <TableCell key={index} sx={{ whiteSpace: 'nowrap' }}>
                  {column.label}{' '}
                  <Typography component="span" variant="caption" color="text.secondary">
                    ({t(`dialogs.value.type.${column.type}`)})
                  </Typography>
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.map((row, rowIndex) => (
              <TableRow key={rowIndex}>
                {value.columns.map((column, columnIndex) => {
                  const fileName =
                    column.type === 'FILE' ? files.get(`${rowIndex}:${columnIndex}`) : undefined;
                  return (
                    <TableCell
                      key={columnIndex}
                      align={column.type === 'NUMBER' ? 'right' : 'left'}
                      sx={{ verticalAlign: 'top' }}
                    >
                      {fileName !== undefined ? (
                        <FileCellLink
                          runId={runId}
                          sequence={step.sequence}
                          cell={{ row: rowIndex, column: columnIndex }}
                          fileName={fileName}
                          columnLabel={column.label}
                        />
                      ) : (
                        cellText(row[columnIndex] ?? null, column.type)
                      )}
                    </TableCell>
                  );
                })}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {value.rows.length > TABLE_PREVIEW_ROWS && (
        <Typography variant="caption" color="text.secondary">
          {t('runs.value.table.shown', { shown: TABLE_PREVIEW_ROWS, count: value.rows.length })}
        </Typography>
      )}
    </Box>
  );
}

function ImagePreview({ runId, sequence }: { runId: string; sequence: number }) {
  const { t } = useTranslation();
  const picture = useBlobUrl(runStepFilePath(runId, sequence));
  if (picture.status === 'loading') return <CircularProgress size={24} aria-label={t('app.loading')} />;
  if (picture.status === 'error') {
    return (
      <Alert severity="warning" sx={{ alignSelf: 'flex-start' }}>
        {t('runs.value.image.error')}
      </Alert>
    );
  }
  return (
    <Box
      component="img"
      src={picture.url}
      alt={t('runs.value.image', { sequence })}
      sx={{
        display: 'block',
        maxWidth: '100%',
        maxHeight: 240,
        objectFit: 'contain',
        alignSelf: 'flex-start',
      }}
    />
  );
}

/** What one step read, shown for people: locale numbers and dates, tables, downloadable files. */
export function StepValueView({ runId, step }: { runId: string; step: RunStep }) {
  const { value } = step;
  if (value === null) return null;
  switch (value.kind) {
    case 'text':
      return (
        <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {value.value}
        </Typography>
      );
    case 'number':
      return (
        <Typography variant="body2" data-value={value.value}>
          {formatNumber(value.value)}
        </Typography>
      );
    case 'datetime':
      return <DateTimeText iso={value.value} />;
    case 'table':
      return <TableView runId={runId} step={step} value={value} />;
    case 'file': {
      const fileName = step.fileName ?? value.fileName;
      return (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <DownloadButton runId={runId} sequence={step.sequence} fileName={fileName} />
          <Typography variant="caption" color="text.secondary">
            {formatSize(value.size)}
          </Typography>
        </Stack>
      );
    }
    case 'image':
      // Without a kept file there is nothing to show or save, only what was read.
      if (step.fileName === null) {
        return (
          <Typography variant="caption" color="text.secondary">
            {value.mimeType} · {formatSize(value.size)}
          </Typography>
        );
      }
      return (
        <Stack spacing={1}>
          <ImagePreview runId={runId} sequence={step.sequence} />
          <DownloadButton runId={runId} sequence={step.sequence} fileName={step.fileName} />
        </Stack>
      );
    case 'none':
      return null;
  }
}
