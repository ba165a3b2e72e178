import { useEffect, useRef, useState } from 'react';
import { Box, Button, LinearProgress, Stack, Typography } from '@mui/material';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { exportQuery, type ExportProgress } from '../api/export-query';
import { saveBlob } from '../../../lib/file-download';
import { formatBytes } from '../save-file';

/**
 * Export to spreadsheet: the result as {query name}.xlsx. The file streams from the server, so
 * while it arrives a progress bar shows the rows it holds (X-Total-Rows) and the bytes received;
 * Stop abandons it.
 */
export function ExportButton({ queryName, queryId }: { queryName: string; queryId?: string }) {
  const { t } = useTranslation();
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const controller = useRef<AbortController | null>(null);

  // Leaving the screen mid-export stops it.
  useEffect(() => () => controller.current?.abort(), []);

  const start = async () => {
    const abort = new AbortController();
    controller.current = abort;
    setProgress({ totalRows: null, receivedBytes: 0 });
    try {
      const { fileName, blob } = await exportQuery({
        queryId,
        fallbackName: `${queryName}.xlsx`,
        signal: abort.signal,
        onProgress: setProgress,
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
          {t('queries.export.progress', {
            rows: progress.totalRows ?? '…',
            received: formatBytes(progress.receivedBytes),
          })}
        </Typography>
      </Box>
      <Button onClick={() => controller.current?.abort()}>{t('queries.export.stop')}</Button>
    </Stack>
  );
}
