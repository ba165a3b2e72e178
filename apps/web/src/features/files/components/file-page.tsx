import { Alert, Button, CircularProgress, Paper, Stack, Typography } from '@mui/material';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import { useMutation } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../../components/page-heading';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { downloadFile } from '../api/download-file';

/** The name a link may carry as `?name=` (the API's link itself names no file). */
const NAME_PARAM = 'name';

/**
 * /file/:token: a one-time download link, usable without a session. The token is spent by the
 * download itself, never by opening the page, so a link previewed by a mail client still works.
 */
export function FilePage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const [searchParams] = useSearchParams();
  const download = useMutation({
    mutationFn: () => downloadFile(token, searchParams.get(NAME_PARAM) ?? 'download'),
    onSuccess: (fileName) => toast.info(t('screen.share.file.saved', { fileName })),
  });
  const fileName = download.data ?? searchParams.get(NAME_PARAM);

  return (
    <Paper sx={{ p: 3, maxWidth: 640, mx: 'auto' }} data-testid="file-page">
      <PageHeading>{t('page.file')}</PageHeading>
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Typography sx={{ wordBreak: 'break-word' }}>
          {fileName ? t('file.name', { fileName }) : t('file.unnamed')}
        </Typography>
        {download.isError && <Alert severity="error">{errorText(download.error)}</Alert>}
        {download.isSuccess ? (
          <Alert severity="success">{t('file.used')}</Alert>
        ) : (
          <>
            <Typography color="text.secondary">{t('file.single.use')}</Typography>
            <Button
              variant="contained"
              startIcon={
                download.isPending ? <CircularProgress size={18} color="inherit" /> : <FileDownloadOutlined />
              }
              disabled={download.isPending || download.isError}
              onClick={() => download.mutate()}
            >
              {t('file.download')}
            </Button>
          </>
        )}
      </Stack>
    </Paper>
  );
}
