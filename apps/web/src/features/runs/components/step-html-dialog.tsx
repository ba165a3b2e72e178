import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PlainTextDialog } from '../../../components/plain-text-dialog';
import { errorText } from '../../../lib/api-client';
import { getRunStepHtml } from '../api/run-step-files';

/** The page's normalized HTML after a step, as plain text: never rendered, only read. */
export function StepHtmlDialog({
  runId,
  sequence,
  onClose,
}: {
  runId: string;
  sequence: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const html = useQuery({
    queryKey: ['runs', runId, 'html', sequence],
    queryFn: ({ signal }) => getRunStepHtml(runId, sequence, signal),
    // What a finished step kept never changes.
    staleTime: Infinity,
  });
  return (
    <PlainTextDialog
      title={t('runs.html.title', { sequence })}
      text={html.data ?? null}
      errorText={html.isError ? errorText(html.error) : null}
      onClose={onClose}
    />
  );
}
