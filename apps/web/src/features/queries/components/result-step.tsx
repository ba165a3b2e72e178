import { useState } from 'react';
import {
  Alert,
  Box,
  LinearProgress,
  Link,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import {
  QUERY_DEFAULT_PAGE_SIZE,
  QUERY_PAGE_SIZES,
  type QueryDatasetField,
  type QueryResultCell,
} from '@pagewright/shared';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { getQueryFile } from '../api/get-query-file';
import { useQueryResult } from '../api/get-query-result';
import { saveBlob } from '../../../lib/file-download';
import { base64Blob } from '../save-file';

/** A column of the table: a FILE field shows two, its file name and its file link (data spec §2). */
interface ResultColumn {
  key: string;
  label: string;
  fieldIndex: number;
  shows: 'value' | 'file-name' | 'file-link';
}

function resultColumns(
  columns: readonly QueryDatasetField[],
  labels: { fileName: (name: string) => string; fileLink: (name: string) => string },
): ResultColumn[] {
  return columns.flatMap((column, fieldIndex): ResultColumn[] =>
    column.type === 'FILE'
      ? [
          {
            key: `${column.datasetFieldId}:name`,
            label: labels.fileName(column.name),
            fieldIndex,
            shows: 'file-name',
          },
          {
            key: `${column.datasetFieldId}:link`,
            label: labels.fileLink(column.name),
            fieldIndex,
            shows: 'file-link',
          },
        ]
      : [{ key: column.datasetFieldId, label: column.name, fieldIndex, shows: 'value' }],
  );
}

const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** A cell as text: date-times (ISO 8601 UTC) in the browser's zone, the rest as the API sends it. */
function cellText(cell: QueryResultCell | undefined): string {
  if (!cell || cell.value === null) return '';
  if (cell.type === 'DATETIME') {
    const date = new Date(cell.value);
    return Number.isNaN(date.getTime()) ? cell.value : dateTimeFormat.format(date);
  }
  return cell.value;
}

/** A FILE cell's link: asks the API for the file (bearer header) and saves it under its own name. */
function FileLink({ cell }: { cell: QueryResultCell }) {
  const { t } = useTranslation();
  const [isLoading, setIsLoading] = useState(false);
  if (!cell.fileId) return null;
  const fileId = cell.fileId;
  const fileName = cell.value ?? fileId;
  const download = async () => {
    setIsLoading(true);
    try {
      const file = await getQueryFile(fileId);
      saveBlob(base64Blob(file.fileContent), file.filename);
    } catch (error) {
      toast.error(errorText(error));
    } finally {
      setIsLoading(false);
    }
  };
  return (
    <Link
      component="button"
      type="button"
      disabled={isLoading}
      onClick={() => void download()}
      aria-label={t('queries.result.download', { fileName })}
    >
      {t('file.download')}
    </Link>
  );
}

/**
 * Step 4: the result, a page at a time from the server (page sizes 5, 10, 25; default 5), with
 * totalOfRows. `revision` changes whenever the draft behind the result changed.
 */
export function ResultStep({ revision }: { revision: number }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const [size, setSize] = useState<number>(QUERY_DEFAULT_PAGE_SIZE);
  const result = useQueryResult(revision, page, size);
  const data = result.data;
  const columns = resultColumns(data?.columns ?? [], {
    fileName: (name) => t('columns.file.name', { name }),
    fileLink: (name) => t('columns.file.link', { name }),
  });

  if (result.isError && !data) return <Alert severity="error">{errorText(result.error)}</Alert>;

  return (
    <Box>
      <Box sx={{ height: 4, mb: 1 }}>
        {result.isFetching && <LinearProgress aria-label={t('app.loading')} />}
      </Box>
      {result.isError && (
        <Alert severity="error" sx={{ mb: 1 }}>
          {errorText(result.error)}
        </Alert>
      )}
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} data-testid="query-total">
        {t('queries.result.total', { count: data?.totalOfRows ?? 0 })}
      </Typography>
      <TableContainer sx={{ maxHeight: 520 }}>
        <Table size="small" stickyHeader aria-label={t('queries.step.result')}>
          <TableHead>
            <TableRow>
              {columns.map((column) => (
                <TableCell key={column.key}>{column.label}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {data && data.rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={Math.max(columns.length, 1)}>
                  <Typography color="text.secondary">{t('queries.result.empty')}</Typography>
                </TableCell>
              </TableRow>
            )}
            {data?.rows.map((row, rowIndex) => (
              <TableRow key={`${data.page}:${rowIndex}`} hover>
                {columns.map((column) => {
                  const cell = row.fields[column.fieldIndex];
                  return (
                    <TableCell key={column.key}>
                      {column.shows === 'file-link' ? cell && <FileLink cell={cell} /> : cellText(cell)}
                    </TableCell>
                  );
                })}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={data?.totalOfRows ?? 0}
        page={page}
        rowsPerPage={size}
        rowsPerPageOptions={[...QUERY_PAGE_SIZES]}
        labelRowsPerPage={t('queries.result.rows.per.page')}
        onPageChange={(_, next) => setPage(next)}
        onRowsPerPageChange={(event) => {
          setSize(Number(event.target.value));
          setPage(0);
        }}
      />
    </Box>
  );
}
