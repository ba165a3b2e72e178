import { Suspense, lazy, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  LinearProgress,
  Link,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ActionType, BuilderAction, ExtractorType } from '@pagewright/shared';
import { PictureDialog } from '../../../components/picture-dialog';
import { DialogLoading } from '../../../components/route-loading';
import { actionTitle } from '../../../lib/action-labels';
import { errorText, isApiError } from '../../../lib/api-client';
import { useBuilder } from '../hooks/use-builder';
import { useRecordFlow } from '../hooks/use-record-flow';
import { useEngineData } from '../hooks/use-engine-data';
import { usePageAreas } from '../hooks/use-page-areas';
import { ActionCard, PendingActionCard, type CardMenuMode } from './action-card';
import { ActionMenu } from './action-menu';
import { useReplay } from '../hooks/use-replay';
import { ErrorDialog } from './message-dialogs';
import { PageDialogPrompt } from './page-dialog-prompt';
import { PageView, type PageViewMode } from './page-view';
import { WindowFitColumn } from './window-fit-column';

// The dialogs (and behind the action dialog, the script editor) load when first opened.
const ActionDialog = lazy(() => import('./dialogs/action-dialog').then((m) => ({ default: m.ActionDialog })));
const GetTablePanel = lazy(() =>
  import('./dialogs/get-table-panel').then((m) => ({ default: m.GetTablePanel })),
);
const SequenceDialog = lazy(() =>
  import('./dialogs/sequence-dialog').then((m) => ({ default: m.SequenceDialog })),
);

export interface BuilderScreenProps {
  extractorType: ExtractorType;
  itemId: string;
  /** The readOnlyEdit setting. */
  isReadOnlyEdit: boolean;
  /** checkImageRefreshInterval (ms). */
  pollAfterMs: number;
  /** Called once the builder is closed on the server (GET /extractor/end). */
  onClosed: () => void;
}

/**
 * The action builder (spec §2): header (name, description, Close, Save, Reload), the left menu
 * that adds actions, the ordered action cards with Validate and Resequence, and the live page
 * view the user clicks on to pick elements or record clicks and typing.
 */
export function BuilderScreen({
  extractorType,
  itemId,
  isReadOnlyEdit,
  pollAfterMs,
  onClosed,
}: BuilderScreenProps) {
  const { t } = useTranslation();
  const engine = useEngineData();
  const builder = useBuilder({ extractorType, itemId, isReadOnlyEdit, onEngineData: engine.remember });
  const { areas, reload } = usePageAreas(
    extractorType,
    builder.pageVersion,
    builder.view !== null,
    engine.remember,
  );
  const replay = useReplay(extractorType);
  const { track: trackReplay, toStep: replayToStep } = replay;
  const { refresh } = builder;
  /** A step running, a validation, or a replay moving the page: nothing else may start. */
  const isBusy = builder.isBusy || replay.running !== null;
  const [picture, setPicture] = useState<{ title: string; data: string } | null>(null);
  const { view, actions, kind, texts, fail, showError } = builder;
  const isNavigator = kind === 'navigator';

  const {
    flow,
    pick,
    highlightedAreaId,
    setHighlightedAreaId,
    isPointing,
    finish,
    choose,
    typeText,
    onPagePoint,
    confirmAdd,
    confirmTable,
    confirmEdit,
    edit,
    recordWheel,
    lookAroundWheel,
    editSequence,
  } = useRecordFlow(extractorType, builder, replayToStep);
  const isPickingTable = flow.step === 'table';

  const enlarge = useCallback(
    (action: BuilderAction, data: string) =>
      setPicture({
        title: t('builder.picture.title', { sequence: action.sequence, type: actionTitle(action.type, t) }),
        data,
      }),
    [t],
  );

  /** Reload replays the draft's steps from a fresh page, then shows the cards as they are. */
  const reloadPage = useCallback(async () => {
    try {
      await trackReplay(null, reload);
      await refresh();
    } catch (error) {
      if (isApiError(error) && error.hasServerMessage) fail(error);
      else showError(t(texts.reloadError));
    }
  }, [fail, refresh, reload, showError, t, texts, trackReplay]);

  // A saved extractor opened afresh starts on a blank page: its steps replay to where they end,
  // so recording goes on from there. An insertor's steps would submit its forms again: its Reload
  // replays them when the operator asks.
  const hasReplayedOnOpen = useRef(false);
  useEffect(() => {
    if (hasReplayedOnOpen.current || !builder.isOpenedAfresh || !view || view.actions.length === 0) return;
    if (extractorType !== 'EXTRACTOR') return;
    hasReplayedOnOpen.current = true;
    void reloadPage();
  }, [builder.isOpenedAfresh, extractorType, reloadPage, view]);

  // Esc leaves picking from anywhere on the page, not only from the focused page view.
  useEffect(() => {
    if (flow.step !== 'pick' && flow.step !== 'point') return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') finish();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [finish, flow.step]);

  const menuMode: CardMenuMode =
    // No menu while validating, after a validation that passed (the spec's builder stays
    // VALIDATING until a change or a save), while a step runs or a replay moves the page.
    !builder.hasCardMenu || builder.pending !== null || replay.running !== null
      ? 'none'
      : builder.state === 'CREATING' || builder.state === 'EDITING'
        ? 'cancel'
        : 'full';

  const mode: PageViewMode =
    isBusy || isPointing
      ? 'disabled'
      : flow.step === 'pick' || flow.step === 'point' || flow.step === 'table'
        ? 'pick'
        : flow.step === 'idle'
          ? 'record'
          : 'disabled';

  const banner = useMemo(() => {
    const pickText =
      flow.step === 'point'
        ? t('builder.picking', { action: actionTitle(flow.type, t) })
        : flow.step === 'pick'
          ? t(
              flow.phase === 'question'
                ? 'builder.picking.question'
                : flow.phase === 'answer'
                  ? 'builder.picking.answer'
                  : 'builder.picking',
              {
                action: actionTitle(flow.type, t),
              },
            )
          : flow.step === 'table'
            ? t('builder.picking.table')
            : null;
    if (replay.running)
      return (
        <Box
          role="status"
          data-testid="replay-banner"
          sx={{ px: 2, py: 1, bgcolor: 'primary.50', borderBottom: 1, borderColor: 'divider' }}
        >
          <Typography variant="body2">
            {replay.running.until === null
              ? t('builder.replay.all')
              : t('builder.replay.to', { sequence: replay.running.until })}
          </Typography>
          <LinearProgress sx={{ mt: 0.5 }} />
        </Box>
      );
    if (replay.stopped && replay.stopped.stoppedAt !== null && !pickText)
      return (
        <Alert severity="warning" role="status" square onClose={replay.dismiss}>
          {t('builder.replay.stopped', {
            sequence: replay.stopped.stoppedAt,
            reason: replay.stopped.message ?? t('builder.replay.ask'),
          })}
        </Alert>
      );
    if (builder.pending)
      return (
        <Box
          role="status"
          sx={{ px: 2, py: 1, bgcolor: 'primary.50', borderBottom: 1, borderColor: 'divider' }}
        >
          <Typography variant="body2">
            {t('builder.running', { action: actionTitle(builder.pending.type, t) })}
          </Typography>
          <LinearProgress sx={{ mt: 0.5 }} />
        </Box>
      );
    if (!pickText) return null;
    return (
      <Alert
        severity="info"
        role="status"
        data-testid="picking-banner"
        square
        action={
          flow.step !== 'table' && (
            <Button color="inherit" size="small" onClick={finish}>
              {t('builder.picking.cancel.button')}
            </Button>
          )
        }
      >
        {pickText} — {t('builder.picking.cancel')}
      </Alert>
    );
  }, [builder.pending, finish, flow, replay, t]);

  if (builder.loadError !== null)
    return (
      <Alert severity="error" sx={{ my: 2 }}>
        {errorText(builder.loadError)}
      </Alert>
    );
  if (!view)
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
        <CircularProgress aria-label={t('app.loading')} />
      </Box>
    );

  const close = async () => {
    if (await builder.close()) onClosed();
  };
  const editedAction = flow.step === 'edit' ? flow.action : undefined;
  const progress = builder.validation;

  return (
    <Box data-testid="builder" data-builder-state={builder.state}>
      <Paper
        variant="outlined"
        sx={{ p: 2, mb: 2, display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: 'wrap' }}
      >
        <Box sx={{ flex: 1, minWidth: 240 }}>
          <Typography variant="h5" component="h1" sx={{ fontWeight: 500 }}>
            {view.name}
          </Typography>
          <Typography color="text.secondary" sx={{ whiteSpace: 'pre-line' }}>
            {view.description}
          </Typography>
          {view.screenShareUrl && (
            <Typography variant="body2" sx={{ mt: 0.5 }}>
              {t('builder.share.link')}:{' '}
              <Link href={view.screenShareUrl} target="_blank" rel="noreferrer">
                {view.screenShareUrl}
              </Link>
            </Typography>
          )}
        </Box>
        <Stack direction="row" spacing={1}>
          <Button variant="outlined" onClick={() => void close()} disabled={builder.isValidating}>
            {t('builder.close')}
          </Button>
          <Button variant="outlined" onClick={() => void reloadPage()} disabled={isBusy}>
            {t('builder.reload')}
          </Button>
          <Button
            variant="contained"
            onClick={() => void builder.save()}
            disabled={builder.isLocked || isBusy}
          >
            {t('builder.save')}
          </Button>
        </Stack>
      </Paper>

      <Box
        sx={{
          display: 'grid',
          gap: 2,
          alignItems: 'start',
          gridTemplateColumns: {
            xs: '1fr',
            md: isPickingTable ? 'minmax(340px, 1fr) 2fr' : '200px minmax(260px, 1fr) 2fr',
          },
        }}
      >
        {isPickingTable && flow.step === 'table' && (
          // Beside the page view, down to the window's bottom: picking never scrolls the app.
          <WindowFitColumn>
            <Suspense fallback={<DialogLoading />}>
              <GetTablePanel
                tableName={flow.input.options?.table?.name ?? ''}
                areas={areas}
                pick={pick}
                onHighlight={setHighlightedAreaId}
                onCancel={finish}
                onConfirm={(table) => void confirmTable(table)}
                extractorType={extractorType}
              />
            </Suspense>
          </WindowFitColumn>
        )}
        {!isPickingTable && (
          <>
            <ActionMenu
              extractorType={extractorType}
              isEmpty={actions.length === 0}
              isDisabled={isBusy || flow.step !== 'idle'}
              onChoose={choose}
            />

            <Box component="section" aria-labelledby="builder-actions-title">
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
                <Typography
                  id="builder-actions-title"
                  variant="subtitle1"
                  component="h2"
                  sx={{ flex: 1, fontWeight: 500 }}
                >
                  {t('builder.actions')}
                </Typography>
                {!isNavigator && (
                  <>
                    <Button
                      size="small"
                      variant="outlined"
                      onClick={() => void builder.resequence()}
                      disabled={isBusy || builder.isLocked || actions.length < 2 || flow.step !== 'idle'}
                    >
                      {t('builder.resequence')}
                    </Button>
                    <Button
                      size="small"
                      variant="contained"
                      onClick={() => void builder.validate()}
                      disabled={isBusy || builder.isLocked || actions.length === 0 || flow.step !== 'idle'}
                    >
                      {t('builder.validate')}
                    </Button>
                  </>
                )}
              </Stack>
              {progress && (
                <Box role="status" aria-live="polite" data-testid="validation-progress" sx={{ mb: 1 }}>
                  <Typography variant="body2">
                    {progress.actionType
                      ? t('builder.validating', {
                          action: t(
                            `dialogs.action.type.${progress.actionType as ActionType}`,
                            progress.actionType,
                          ),
                        })
                      : t('builder.validating.start')}
                  </Typography>
                  <LinearProgress
                    variant="determinate"
                    value={progress.progress}
                    aria-label={t('builder.validate')}
                  />
                </Box>
              )}
              {!isNavigator && actions.length > 0 && !progress && (
                <Typography
                  variant="caption"
                  color={view.isValidated ? 'success.main' : 'warning.dark'}
                  sx={{ display: 'block', mb: 1 }}
                >
                  {t(view.isValidated ? 'builder.state.validated' : 'builder.state.not.validated')}
                </Typography>
              )}
              <Stack
                component="ol"
                spacing={1}
                // Cards keep their height: in a scrolling flex column they would shrink and clip.
                sx={{ p: 0, m: 0, maxHeight: '75vh', overflow: 'auto', '& > li': { flexShrink: 0 } }}
              >
                {actions.length === 0 && !builder.pending && (
                  <Typography component="li" color="text.secondary" sx={{ listStyle: 'none' }}>
                    {t('builder.actions.empty')}
                  </Typography>
                )}
                {actions.map((action) => (
                  <ActionCard
                    key={action.id}
                    action={action}
                    picture={builder.pictures[action.id]}
                    isUnfinished={builder.editingId === action.id}
                    menuMode={menuMode}
                    onEdit={edit}
                    onEditSequence={editSequence}
                    onRemove={builder.removeAction}
                    onCancel={finish}
                    onEnlarge={enlarge}
                  />
                ))}
                {builder.pending && (
                  <PendingActionCard type={builder.pending.type} sequence={builder.pending.sequence} />
                )}
              </Stack>
            </Box>
          </>
        )}

        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}>
          <PageView
            extractorType={extractorType}
            pollAfterMs={pollAfterMs}
            areas={areas}
            mode={mode}
            highlightedAreaId={highlightedAreaId === null ? null : Number(highlightedAreaId)}
            onPagePoint={(point, area) => void onPagePoint(point, area)}
            canType={flow.step === 'idle'}
            onText={(text) => void typeText(text)}
            onEscape={finish}
            onSettled={builder.pagesChanged}
            onWheel={
              flow.step === 'idle' ? recordWheel : (deltaY, point) => void lookAroundWheel(deltaY, point)
            }
            banner={banner}
          />
        </Box>
      </Box>

      <Suspense fallback={<DialogLoading />}>
        {(flow.step === 'add' || flow.step === 'edit') && (
          <ActionDialog
            open
            mode={flow.step === 'add' ? 'add' : 'edit'}
            actionType={flow.step === 'add' ? flow.type : flow.action.type}
            extractorType={extractorType}
            actions={actions}
            target={flow.step === 'add' ? flow.target : null}
            selectOptions={flow.step === 'add' ? flow.selectOptions : undefined}
            engineInvestors={engine.investors}
            engineFields={engine.fields}
            action={editedAction}
            onCancel={finish}
            onConfirm={(input) =>
              flow.step === 'edit' ? confirmEdit(flow.action, input) : confirmAdd(input)
            }
          />
        )}
        {flow.step === 'sequence' && (
          <SequenceDialog
            open
            action={flow.action}
            actions={actions}
            onCancel={finish}
            onConfirm={(sequence: number) => builder.changeSequence(flow.action, sequence).then(finish)}
          />
        )}
      </Suspense>
      <PageDialogPrompt
        extractorType={extractorType}
        isActionRunning={builder.pending !== null}
        onError={(error) => builder.showError(errorText(error))}
      />
      <ErrorDialog message={builder.errorMessage} onClose={builder.dismissError} />
      {picture && (
        <PictureDialog
          title={picture.title}
          src={`data:image/jpeg;base64,${picture.data}`}
          onClose={() => setPicture(null)}
        />
      )}
    </Box>
  );
}
