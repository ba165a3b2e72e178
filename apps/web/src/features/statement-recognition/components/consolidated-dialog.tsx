import { useMemo, useState } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import {
  CONSOLIDATED_DEFAULT_PAGE_SIZE,
  CONSOLIDATED_PAGE_SIZES,
  parseRecognitionCsv,
} from '@pagewright/shared';

/**
 * The consolidated results (data spec §2): Filename, Page, Label, Value from the consolidated CSV,
 * 100, 500 or 1000 rows a page; download and close.
 */
export function ConsolidatedDialog({
  csv,
  onDownload,
  onClose,
}: {
  csv: string;
  onDownload: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const rows = useMemo(() => parseRecognitionCsv(csv), [csv]);
  const [page, setPage] = useState(0);
  const [size, setSize] = useState<number>(CONSOLIDATED_DEFAULT_PAGE_SIZE);
  const shown = rows.slice(page * size, (page + 1) * size);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="lg" aria-labelledby="consolidated-title">
      <DialogTitle id="consolidated-title">{t('statements.consolidated.title')}</DialogTitle>
      <DialogContent>
        <Table size="small" aria-label={t('statements.consolidated.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('statements.column.filename')}</TableCell>
              <TableCell>{t('statements.column.page')}</TableCell>
              <TableCell>{t('statements.column.label')}</TableCell>
              <TableCell>{t('statements.column.value')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.map((row, index) => (
              <TableRow
                key={`${row.filename}-${row.page}-${row.label}-${index}`}
                // Page 0 is the record that says the file does not match its template.
                sx={row.page === 0 ? { bgcolor: 'error.light', '& td': { fontWeight: 500 } } : undefined}
              >
                <TableCell>{row.filename}</TableCell>
                <TableCell>{row.page}</TableCell>
                <TableCell>{row.label}</TableCell>
                <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{row.value}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <TablePagination
          component="div"
          count={rows.length}
          page={page}
          onPageChange={(_, next) => setPage(next)}
          rowsPerPage={size}
          rowsPerPageOptions={[...CONSOLIDATED_PAGE_SIZES]}
          onRowsPerPageChange={(event) => {
            setSize(Number(event.target.value));
            setPage(0);
          }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onDownload}>{t('statements.consolidated.download')}</Button>
        <Button onClick={onClose}>{t('statements.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
