import { useState } from 'react';
import { Alert, Box, CircularProgress, Grid, Paper, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import {
  SCREEN_SHARE_POLL_AFTER_FAILURE_MS,
  type ScreenShareAction,
  type ScreenShareView,
} from '@pagewright/shared';
import { PictureDialog } from '../../../components/picture-dialog';
import { PlainTextDialog } from '../../../components/plain-text-dialog';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { isLinkGone, stepScreenUrl } from '../api/get-screen-share';
import { getStepHtml } from '../api/get-step-html';
import { useScreenShare } from '../hooks/use-screen-share';
import { useStepFileDownload } from '../hooks/use-step-file-download';
import { ActionList, actionKey } from './action-list';
import { LivePage } from './live-page';
import { ScreenShareSummary } from './screen-share-summary';

/**
 * The layout rule (spec §2): while the run executes, the view spans all 12 columns, the live page
 * beside the action list; once the run has ended there is no live page, and the summary and the
 * list read better in a centred 9-column column.
 */
export function screenShareColumns(status: ScreenShareView['status']): 12 | 9 {
  return status === 'EXECUTING' ? 12 : 9;
}

/** The step whose picture stands in for the live page: the most recent one that kept a screenshot. */
function latestScreen(actions: ScreenShareAction[]): ScreenShareAction | undefined {
  return actions
    .filter((action) => action.hasScreen)
    .reduce<ScreenShareAction | undefined>(
      (latest, action) => (latest && latest.timestamp > action.timestamp ? latest : action),
      undefined,
    );
}

function EndedNotice({ view }: { view: ScreenShareView }) {
  const { t } = useTranslation();
  if (view.status === 'ERROR')
    return (
      <Alert severity="error">
        {t('screen.share.ended.error', { errorMessage: view.errorMessage ?? t('screen.share.status.ERROR') })}
      </Alert>
    );
  if (view.status === 'STOPPED') return <Alert severity="info">{t('screen.share.ended.stopped')}</Alert>;
  return <Alert severity="success">{t('screen.share.ended')}</Alert>;
}

/** /screen-share/:token: the read-only view of a navigator run for a person without an account. */
export function ScreenSharePage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const share = useScreenShare(token);
  const [screenAction, setScreenAction] = useState<ScreenShareAction | null>(null);
  const [htmlStep, setHtmlStep] = useState<{ sequence: number; html: string } | null>(null);
  const fileDownload = useStepFileDownload(token);
  const htmlLoad = useMutation({
    mutationFn: (action: ScreenShareAction) => getStepHtml(token, action.sequence),
    onSuccess: (html, action) => setHtmlStep({ sequence: action.sequence, html }),
    onError: (error) => toast.error(errorText(error)),
  });

  if (share.isError && isLinkGone(share.error))
    return (
      <Paper sx={{ p: 3 }}>
        <Alert severity="error">{errorText(share.error)}</Alert>
      </Paper>
    );

  const retrying = share.isFailing && (
    <Alert severity="warning" sx={{ mb: 2 }}>
      {t('screen.share.retrying', { seconds: SCREEN_SHARE_POLL_AFTER_FAILURE_MS / 1000 })}
    </Alert>
  );
  const view = share.data;
  if (view === undefined)
    return (
      <Box>
        {retrying}
        {share.isPending && <CircularProgress aria-label={t('app.loading')} />}
      </Box>
    );

  const columns = screenShareColumns(view.status);
  const isLive = view.status === 'EXECUTING';
  const actionList = (
    <Paper sx={{ p: 2 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('screen.share.actions')}
      </Typography>
      <ActionList
        actions={view.actions}
        downloadingKey={
          fileDownload.isPending && fileDownload.variables ? actionKey(fileDownload.variables) : null
        }
        onScreen={setScreenAction}
        onHtml={(action) => htmlLoad.mutate(action)}
        onFile={(action) => fileDownload.mutate(action)}
      />
    </Paper>
  );

  return (
    <Grid container sx={{ justifyContent: 'center' }}>
      <Grid size={{ xs: 12, md: columns }} data-testid="screen-share-view" data-columns={columns}>
        {retrying}
        <Paper sx={{ p: 3, mb: 3 }}>
          <ScreenShareSummary view={view} />
        </Paper>
        {isLive ? (
          <Grid container spacing={3}>
            <Grid size={{ xs: 12, md: 8 }}>
              <Paper sx={{ p: 2 }} component="section" aria-label={t('screen.share.live.page')}>
                <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                  {t('screen.share.live.page')}
                </Typography>
                <LivePage token={token} latestStep={latestScreen(view.actions)} />
              </Paper>
            </Grid>
            <Grid size={{ xs: 12, md: 4 }}>{actionList}</Grid>
          </Grid>
        ) : (
          <>
            <Box sx={{ mb: 3 }}>
              <EndedNotice view={view} />
            </Box>
            {actionList}
          </>
        )}
      </Grid>
      {screenAction && (
        <PictureDialog
          title={t('screen.share.screen.title', { sequence: screenAction.sequence })}
          src={stepScreenUrl(token, screenAction.sequence, screenAction.timestamp)}
          onClose={() => setScreenAction(null)}
        />
      )}
      {htmlStep && (
        <PlainTextDialog
          title={t('screen.share.html.title', { sequence: htmlStep.sequence })}
          text={htmlStep.html}
          onClose={() => setHtmlStep(null)}
        />
      )}
    </Grid>
  );
}
