import { useTranslation } from 'react-i18next';
import type { RunStepScreenshotKind } from '@pagewright/shared';
import { PictureDialog } from '../../../components/picture-dialog';
import { runStepScreenshotPath } from '../api/run-step-files';
import { useBlobUrl } from '../hooks/use-blob-url';

/** A step's page or element screenshot, fetched with the session. */
export function StepPictureDialog({
  runId,
  sequence,
  kind,
  onClose,
}: {
  runId: string;
  sequence: number;
  kind: RunStepScreenshotKind;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const picture = useBlobUrl(runStepScreenshotPath(runId, sequence, kind));
  return (
    <PictureDialog
      title={t(`runs.picture.title.${kind}`, { sequence })}
      src={picture.status === 'ready' ? picture.url : null}
      errorText={picture.status === 'error' ? t('runs.picture.error') : null}
      onClose={onClose}
    />
  );
}
