import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ScreenShareAction } from '@pagewright/shared';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { downloadStepFile } from '../api/download-step-file';

/** The File button: a fresh one-time link, spent at once; the outcome shows as a toast (spec §8). */
export function useStepFileDownload(token: string) {
  const { t } = useTranslation();
  return useMutation({
    mutationFn: (action: ScreenShareAction) =>
      downloadStepFile(token, action.sequence, action.fileName ?? `file-${action.sequence}`),
    onSuccess: (fileName) => toast.info(t('screen.share.file.saved', { fileName })),
    onError: (error) => toast.error(errorText(error)),
  });
}
