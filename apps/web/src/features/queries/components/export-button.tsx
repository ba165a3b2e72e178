import { useEffect, useRef, useState } from 'react';
import { Box, Button, LinearProgress, Stack, Typography } from '@mui/material';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { exportQuery, type ExportProgress } from '../api/export-query';
import { saveBlob } from '../../../lib/file-download';
import { formatBytes } from '../save-file';

/** What the progress line shows: 'waiting' until the server answers, then the rows and the bytes so far. */
type ShownProgress = 'waiting' | { totalRows: number | null; received: string };

/**
 * Export to spreadsheet: the result as {query name}.xlsx. The file streams from the server, so
 * while it arrives a progress bar shows the rows it holds (X-Total-Rows) and the bytes received,
 * counted chunk by chunk; Stop abandons it.
 */
export function ExportButton({ queryName, queryId }: { queryName: string; queryId?: string }) {
  const { t } = useTranslation();
  const [progress, setProgress] = useState<ShownProgress | null>(null);
  // Every chunk reports; the line renders again only when its text changes (0.1 KB or MB steps).
  const onProgress = ({ totalRows, receivedBytes }: ExportProgress) => {
    const received = formatBytes(receivedBytes);
    setProgress((shown) =>
      shown !== null && shown !== 'waiting' && shown.totalRows === totalRows && shown.received === received
        ? shown
        : { totalRows, received },
    );
  };
  const controller = useRef<AbortController | null>(null);

  // Leaving the screen mid-export stops it.
  useEffect(() => () => controller.current?.abort(), []);

  const start = async () => {
    const abort = new AbortController();
    controller.current = abort;
    setProgress('waiting');
    try {
      const { fileName, blob } = await exportQuery({
        queryId,
        fallbackName: `${queryName}.xlsx`,
        signal: abort.signal,
        onProgress,
      });
      saveBlob(blob, fileName);
      toast.success(t('queries.export.done', { fileName }));
    } catch (error) {
      if (!abort.signal.aborted) toast.error(errorText(error));
    } finally {
      if (controller.current === abort) controller.current = null;
      setProgress(null);
    }
  };

  if (progress === null)
    return (
      <Button startIcon={<FileDownloadOutlined />} onClick={() => void start()}>
        {t('queries.export')}
      </Button>
    );

  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{ alignItems: 'center', minWidth: 320 }}
      data-testid="query-export-progress"
    >
      <Box sx={{ flex: 1 }}>
        <LinearProgress aria-label={t('queries.export')} />
        <Typography variant="caption" color="text.secondary">
          {progress === 'waiting'
            ? t('queries.export.waiting')
            : t('queries.export.progress', { rows: progress.totalRows ?? '…', received: progress.received })}
        </Typography>
      </Box>
      <Button onClick={() => controller.current?.abort()}>{t('queries.export.stop')}</Button>
    </Stack>
  );
}
