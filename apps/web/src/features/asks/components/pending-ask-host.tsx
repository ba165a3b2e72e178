import { Suspense, lazy, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  EXTRACTOR_TYPES,
  PENDING_ASK_CHECK_DELAY_MS,
  PENDING_ASK_CHECK_INTERVAL_MS,
  type ExtractorType,
  type PageElementArea,
  type PendingAskAction,
} from '@pagewright/shared';
import { DialogLoading } from '../../../components/route-loading';
import { isApiError } from '../../../lib/api-client';
import { useLiveEvents } from '../../../lib/live-events';
import { onPendingAskCheckRequest } from '../../../lib/pending-ask-check';
import { getSession, useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { answerPendingAsk } from '../api/answer-pending-ask';
import { getPendingAsk } from '../api/get-pending-ask';
import type { AskAnswer } from './ask-dialog';

// Mounted on every signed-in screen, opened only when a run asks: its code loads then.
const AskDialog = lazy(() => import('./ask-dialog').then((m) => ({ default: m.AskDialog })));

/** After a reCAPTCHA click the worker clicks, waits 400 ms and re-offers the ask with a new picture. */
const RECAPTCHA_REFRESH_POLL_MS = 500;
const RECAPTCHA_REFRESH_TIMEOUT_MS = 10_000;

interface OpenAsk {
  ask: PendingAskAction;
  extractorType: ExtractorType;
}

const wait = (ms: number) => new Promise((resolve) => window.setTimeout(resolve, ms));

/**
 * Mounted once by the app layout, so a question a run waits on is answered from any screen
 * (dashboard runs, builder validations). It looks for one when a screen asks for a check
 * (requestPendingAskCheck, after each dashboard list load), when a `pending-ask` live event
 * arrives, and when the live socket (re)connects. One dialog at a time; a NAVIGATE ask is sent
 * back at once without asking.
 */
export function PendingAskHost() {
  const { t } = useTranslation();
  const { accessToken } = useSession();
  const [open, setOpen] = useState<OpenAsk | null>(null);
  const [isRefreshing, setIsRefreshing] = useState(false);
  /** The open ask for callbacks and live events; set together with `open`. */
  const openRef = useRef<OpenAsk | null>(null);
  /** Asks answered from this tab: a check that left before the answer must not reopen them. */
  const answered = useRef(new Set<string>());
  const inFlight = useRef(new Set<ExtractorType>());
  const followUp = useRef<number | undefined>(undefined);

  const check = useCallback(async (extractorType: ExtractorType): Promise<boolean> => {
    if (!getSession().accessToken || openRef.current || inFlight.current.has(extractorType)) return false;
    inFlight.current.add(extractorType);
    try {
      const ask = await getPendingAsk(extractorType);
      if (!ask || answered.current.has(ask.id) || openRef.current) return false;
      if (ask.type === 'NAVIGATE') {
        answered.current.add(ask.id);
        await answerPendingAsk({ id: ask.id, textValue: ask.options.text ?? '' });
        return true;
      }
      const next = { ask, extractorType };
      openRef.current = next;
      setOpen(next);
      return true;
    } catch {
      // A background check: the next list load, live event or reconnection looks again.
      return false;
    } finally {
      inFlight.current.delete(extractorType);
    }
  }, []);

  const checkEveryType = useCallback(async () => {
    for (const extractorType of EXTRACTOR_TYPES) {
      if (await check(extractorType)) return;
    }
  }, [check]);

  useEffect(() => onPendingAskCheckRequest((extractorType) => void check(extractorType)), [check]);
  useEffect(() => () => window.clearTimeout(followUp.current), []);

  /** reCAPTCHA: the same ask comes back with a new picture and areas; true once it has. */
  const refreshOpenAsk = useCallback(async (previousPicture: string | null): Promise<boolean> => {
    const current = openRef.current;
    if (!current) return true;
    const ask = await getPendingAsk(current.extractorType).catch(() => undefined);
    if (ask === undefined) return false;
    if (ask === null || ask.id !== current.ask.id) {
      // The step ended meanwhile (solved, canceled elsewhere or expired).
      openRef.current = null;
      setOpen(null);
      return true;
    }
    if (ask.elementScreenshot === previousPicture) return false;
    const next = { ask, extractorType: current.extractorType };
    openRef.current = next;
    setOpen(next);
    return true;
  }, []);

  /**
   * An open ask may be answered elsewhere (another tab), canceled or expire. The endpoint answers
   * the oldest pending ask, so once it answers another one (or none), the open one is gone.
   */
  const verifyOpenAsk = useCallback(async () => {
    const current = openRef.current;
    if (!current) return;
    const ask = await getPendingAsk(current.extractorType).catch(() => undefined);
    if (ask === undefined || openRef.current !== current || ask?.id === current.ask.id) return;
    answered.current.add(current.ask.id);
    openRef.current = null;
    setOpen(null);
    toast.info(t('ask.gone'));
    if (ask) void check(current.extractorType);
  }, [check, t]);

  useEffect(() => {
    if (!open || isRefreshing) return undefined;
    const timer = window.setInterval(() => void verifyOpenAsk(), PENDING_ASK_CHECK_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [open, isRefreshing, verifyOpenAsk]);

  useLiveEvents(
    ['pending-ask', 'ready'],
    (event) => {
      if (event.type === 'pending-ask' && openRef.current?.ask.id === event.askId) {
        void refreshOpenAsk(openRef.current.ask.elementScreenshot).then(
          (isRefreshed) => isRefreshed && setIsRefreshing(false),
        );
        return;
      }
      void checkEveryType();
    },
    accessToken !== null,
  );

  const close = (current: OpenAsk) => {
    answered.current.add(current.ask.id);
    openRef.current = null;
    setOpen(null);
    setIsRefreshing(false);
    // The run may ask again right away (an id, then a password).
    window.clearTimeout(followUp.current);
    followUp.current = window.setTimeout(() => void check(current.extractorType), PENDING_ASK_CHECK_DELAY_MS);
  };

  const onAnswer = async (answer: AskAnswer) => {
    const current = openRef.current;
    if (!current) return;
    try {
      await answerPendingAsk({ id: current.ask.id, ...answer });
    } catch (error) {
      // Answered in another tab, canceled or expired: nothing waits for this answer any more.
      if (!isApiError(error, 404)) throw error;
      toast.warning(t('ask.gone'));
    }
    close(current);
  };

  const onPickArea = async (area: PageElementArea) => {
    const current = openRef.current;
    if (!current) return;
    const previousPicture = current.ask.elementScreenshot;
    setIsRefreshing(true);
    try {
      await answerPendingAsk({ id: current.ask.id, textValue: area.selector });
      const deadline = Date.now() + RECAPTCHA_REFRESH_TIMEOUT_MS;
      while (openRef.current?.ask.id === current.ask.id && Date.now() < deadline) {
        await wait(RECAPTCHA_REFRESH_POLL_MS);
        if (await refreshOpenAsk(previousPicture)) break;
      }
    } finally {
      setIsRefreshing(false);
    }
  };

  if (!open) return null;
  return (
    <Suspense fallback={<DialogLoading />}>
      <AskDialog
        key={open.ask.id}
        ask={open.ask}
        onAnswer={onAnswer}
        onPickArea={onPickArea}
        isRefreshing={isRefreshing}
      />
    </Suspense>
  );
}
