import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import {
  MESSAGES,
  SCREEN_SHARE_LIVE_POLL_MS,
  SCREEN_SHARE_MESSAGES,
  SCREEN_SHARE_POLL_AFTER_FAILURE_MS,
  SCREEN_SHARE_POLL_MS,
  type ScreenShareLiveFrame,
  type ScreenShareView,
} from '@pagewright/shared';
import { Toaster } from '../../../components/toaster';
import '../../../lib/i18n';
import { ScreenSharePage } from './screen-share-page';
import { CLOCK_MARGIN_MS, advance, installFakeClock } from '../../../test-support/clock';
import { urlOf } from '../../../test-support/fetch';

const TOKEN = 'share-token';
const VIEW_PATH = `/api/extractor/token/${TOKEN}`;
const LIVE_PATH = `${VIEW_PATH}/live`;

const view = (overrides: Partial<ScreenShareView> = {}): ScreenShareView => ({
  name: 'Bank statements',
  userFullName: 'Ada Lovelace',
  status: 'EXECUTING',
  errorMessage: null,
  timestamp: '2026-03-01T10:00:20.000Z',
  pageUrl: 'https://bank.example/statements',
  actions: [
    {
      sequence: 10,
      type: 'NAVIGATE',
      label: null,
      pageUrl: 'https://bank.example/login',
      timestamp: '2026-03-01T10:00:10.000Z',
      hasScreen: true,
      hasHtml: true,
      hasFile: false,
      fileName: null,
    },
    {
      sequence: 20,
      type: 'GET_FILE',
      label: 'Statement',
      pageUrl: 'https://bank.example/statements',
      timestamp: '2026-03-01T10:00:20.000Z',
      hasScreen: true,
      hasHtml: false,
      hasFile: true,
      fileName: 'statement.pdf',
    },
  ],
  ...overrides,
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Answers of the view endpoint, in order; the last one repeats. Other paths answer per test. */
let viewAnswers: (() => Response)[];
let otherAnswers: Map<string, () => Response>;
let viewCalls: number;
/** Methods of every call made: the viewer only ever reads. */
let methods: string[];

function stubApi() {
  viewCalls = 0;
  methods = [];
  otherAnswers = new Map();
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = urlOf(input);
      methods.push(init?.method ?? 'GET');
      if (url === VIEW_PATH) {
        const answer = viewAnswers[Math.min(viewCalls, viewAnswers.length - 1)]!;
        viewCalls += 1;
        return Promise.resolve(answer());
      }
      const other = otherAnswers.get(url);
      return other ? Promise.resolve(other()) : Promise.reject(new Error(`unexpected call ${url}`));
    }),
  );
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[`/screen-share/${TOKEN}`]}>
        <Routes>
          <Route path="/screen-share/:token" element={<ScreenSharePage />} />
        </Routes>
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  installFakeClock();
  stubApi();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('screen-share view polling (spec §9: 3 s while EXECUTING, 5 s after a failure)', () => {
  it('asks again every 3 s while the run is executing', async () => {
    viewAnswers = [() => json(view())];
    renderPage();
    await advance(0);
    expect(viewCalls).toBe(1);
    expect(screen.getByText('Ada Lovelace')).toBeTruthy();

    await advance(SCREEN_SHARE_POLL_MS - CLOCK_MARGIN_MS);
    expect(viewCalls).toBe(1);
    await advance(2 * CLOCK_MARGIN_MS);
    expect(viewCalls).toBe(2);
    await advance(SCREEN_SHARE_POLL_MS);
    expect(viewCalls).toBe(3);
  });

  it('waits 5 s after a failed load, warns once, keeps the last view, then returns to 3 s', async () => {
    viewAnswers = [
      () => json(view()),
      () => json({ message: 'Internal server error', code: 'INTERNAL' }, 500),
      () => json({ message: 'Internal server error', code: 'INTERNAL' }, 500),
      () => json(view()),
    ];
    renderPage();
    await advance(0);
    await advance(SCREEN_SHARE_POLL_MS + CLOCK_MARGIN_MS);
    expect(viewCalls).toBe(2);
    const toasts = screen.getAllByTestId('toast');
    expect(toasts.map((toast) => toast.textContent)).toEqual([MESSAGES['navigator.screenshot.error']]);
    expect(screen.getByText('Bank statements')).toBeTruthy();

    await advance(SCREEN_SHARE_POLL_AFTER_FAILURE_MS - 2 * CLOCK_MARGIN_MS);
    expect(viewCalls).toBe(2);
    await advance(2 * CLOCK_MARGIN_MS);
    expect(viewCalls).toBe(3);
    // The second failure of the same series does not repeat the warning.
    expect(screen.getAllByTestId('toast')).toHaveLength(1);

    await advance(SCREEN_SHARE_POLL_AFTER_FAILURE_MS);
    expect(viewCalls).toBe(4);
    await advance(SCREEN_SHARE_POLL_MS);
    expect(viewCalls).toBe(5);
  });

  it('stops polling and says so once the run has ended', async () => {
    viewAnswers = [() => json(view()), () => json(view({ status: 'SUCCESS' }))];
    renderPage();
    await advance(0);
    await advance(SCREEN_SHARE_POLL_MS);
    expect(viewCalls).toBe(2);
    expect(screen.getByText('The run has finished. The recorded actions stay available below.')).toBeTruthy();
    await advance(SCREEN_SHARE_POLL_AFTER_FAILURE_MS * 4);
    expect(viewCalls).toBe(2);
  });

  it("shows the API's text for an invalid link and does not ask again", async () => {
    viewAnswers = [() => json({ message: SCREEN_SHARE_MESSAGES.linkInvalid, code: 'NOT_FOUND' }, 404)];
    renderPage();
    await advance(0);
    expect(screen.getByText(SCREEN_SHARE_MESSAGES.linkInvalid)).toBeTruthy();
    await advance(SCREEN_SHARE_POLL_AFTER_FAILURE_MS * 2);
    expect(viewCalls).toBe(1);
  });
});

describe('screen-share view layout (spec §2: 12 columns with the action list, 9 once finished)', () => {
  it('spans 12 columns with the live page beside the actions while executing', async () => {
    viewAnswers = [() => json(view())];
    renderPage();
    await advance(0);
    const root = screen.getByTestId('screen-share-view');
    expect(root.dataset.columns).toBe('12');
    expect(root.className).toContain('MuiGrid-grid-md-12');
    const live = screen.getByRole('region', { name: 'Live page' });
    // The latest step's picture is the live page.
    expect(live.querySelector('img')?.getAttribute('src')).toContain('/step/20/screen');
    expect(within(screen.getByRole('list', { name: 'Actions' })).getAllByRole('listitem')).toHaveLength(2);
  });

  it('narrows to 9 columns without a live page once the run has finished', async () => {
    viewAnswers = [() => json(view({ status: 'ERROR', errorMessage: 'No Such Element' }))];
    renderPage();
    await advance(0);
    const root = screen.getByTestId('screen-share-view');
    expect(root.dataset.columns).toBe('9');
    expect(root.className).toContain('MuiGrid-grid-md-9');
    expect(screen.queryByRole('region', { name: 'Live page' })).toBeNull();
    expect(screen.getByText('The run has finished with an error: No Such Element')).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Actions' })).getAllByRole('listitem')).toHaveLength(2);
  });
});

describe('screen-share view contents', () => {
  it('keeps the shown live page until the next picture has loaded', async () => {
    const second = view({
      actions: [
        ...view().actions,
        { ...view().actions[0]!, sequence: 30, timestamp: '2026-03-01T10:00:30.000Z' },
      ],
    });
    viewAnswers = [() => json(view()), () => json(second)];
    renderPage();
    await advance(0);
    const live = screen.getByRole('region', { name: 'Live page' });
    fireEvent.load(live.querySelector('img')!);
    expect(live.querySelector('img[data-state="shown"]')?.getAttribute('src')).toContain('/step/20/');

    await advance(SCREEN_SHARE_POLL_MS + CLOCK_MARGIN_MS);
    expect(live.querySelector('img[data-state="shown"]')?.getAttribute('src')).toContain('/step/20/');
    const loading = live.querySelector('img[data-state="loading"]')!;
    expect(loading.getAttribute('src')).toContain('/step/30/');
    fireEvent.load(loading);
    expect(live.querySelectorAll('img')).toHaveLength(1);
    expect(live.querySelector('img[data-state="shown"]')?.getAttribute('src')).toContain('/step/30/');
  });

  it('shows the normalized HTML as text, never as markup', async () => {
    const untrusted = '<html><body><script>alert(1)</script><p id="balance">Balance</p></body></html>';
    viewAnswers = [() => json(view({ status: 'SUCCESS' }))];
    otherAnswers.set(
      `${VIEW_PATH}/step/10/html`,
      () => new Response(untrusted, { headers: { 'content-type': 'text/plain; charset=utf-8' } }),
    );
    renderPage();
    await advance(0);
    const first = screen.getAllByRole('listitem')[0]!;
    fireEvent.click(within(first).getByRole('button', { name: 'HTML' }));
    await advance(0);
    const dialog = screen.getByRole('dialog', { name: 'HTML of action 10' });
    expect(within(dialog).getByText(untrusted)).toBeTruthy();
    expect(document.querySelector('#balance')).toBeNull();
    expect(document.querySelector('script')).toBeNull();
  });
});

describe('screen-share live page (issue 22: the live frames, read-only, as the builder shows them)', () => {
  const frame = (data: string): ScreenShareLiveFrame => ({
    image: data,
    pageUrl: 'https://bank.example/statements',
    width: 1280,
    height: 800,
  });
  /** What the canvas was given, in order: the source of each picture drawn. */
  let drawn: string[];
  let visibility: DocumentVisibilityState;

  beforeEach(() => {
    drawn = [];
    visibility = 'visible';
    // jsdom neither decodes pictures nor paints a canvas: the painting is recorded instead.
    Object.defineProperty(HTMLImageElement.prototype, 'decode', {
      configurable: true,
      value: () => Promise.resolve(),
    });
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(
      () =>
        ({
          drawImage: (image: HTMLImageElement) => drawn.push(image.src),
        }) as unknown as CanvasRenderingContext2D,
    );
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
  });

  afterEach(() => {
    vi.restoreAllMocks();
    Reflect.deleteProperty(HTMLImageElement.prototype, 'decode');
  });

  /** Live answers in order (the last one repeats), counting the calls. */
  function answerLive(answers: (() => Response)[]) {
    const calls = { count: 0 };
    otherAnswers.set(LIVE_PATH, () => {
      const answer = answers[Math.min(calls.count, answers.length - 1)]!;
      calls.count += 1;
      return answer();
    });
    return calls;
  }

  it("paints each live frame in place of the latest step's picture, and only reads", async () => {
    viewAnswers = [() => json(view())];
    const live = answerLive([() => json(frame('Rmlyc3Q=')), () => json(frame('U2Vjb25k'))]);
    renderPage();
    await advance(0);
    const region = screen.getByRole('region', { name: 'Live page' });
    const picture = within(region).getByRole('img', { name: 'Live page' });
    expect(picture.tagName).toBe('CANVAS');
    expect(picture.dataset.state).toBe('live');
    expect(drawn).toEqual(['data:image/jpeg;base64,Rmlyc3Q=']);
    // The step picture taken as the step ended is no longer what the viewer sees.
    expect(region.querySelector('img')).toBeNull();

    await advance(SCREEN_SHARE_LIVE_POLL_MS + CLOCK_MARGIN_MS);
    expect(live.count).toBe(2);
    expect(drawn.at(-1)).toBe('data:image/jpeg;base64,U2Vjb25k');
    expect(new Set(methods)).toEqual(new Set(['GET']));
  });

  it("shows the latest step's picture and says so while the session has no live page", async () => {
    viewAnswers = [() => json(view())];
    const live = answerLive([
      () => json({ message: SCREEN_SHARE_MESSAGES.noLivePage, code: 'NOT_FOUND' }, 404),
      () => json(frame('TGl2ZQ==')),
    ]);
    renderPage();
    await advance(0);
    const region = screen.getByRole('region', { name: 'Live page' });
    expect(
      within(region).getByText(
        'The live page is not available right now: this is the picture of the latest step.',
      ),
    ).toBeTruthy();
    expect(region.querySelector('img')?.getAttribute('src')).toContain('/step/20/screen');
    expect(drawn).toEqual([]);

    // Asked again at the view's pace; the live page takes over as soon as it is there.
    await advance(SCREEN_SHARE_POLL_MS - CLOCK_MARGIN_MS);
    expect(live.count).toBe(1);
    await advance(2 * CLOCK_MARGIN_MS);
    expect(live.count).toBe(2);
    expect(drawn).toEqual(['data:image/jpeg;base64,TGl2ZQ==']);
    expect(within(region).getByRole('img', { name: 'Live page' }).dataset.state).toBe('live');
    expect(region.querySelector('img')).toBeNull();
  });

  it('reads nothing while the tab is hidden, and reads again when it is shown', async () => {
    viewAnswers = [() => json(view())];
    const live = answerLive([() => json(frame('Rmlyc3Q='))]);
    renderPage();
    await advance(0);
    expect(live.count).toBe(1);

    visibility = 'hidden';
    await act(async () => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await advance(SCREEN_SHARE_LIVE_POLL_MS * 10);
    expect(live.count).toBe(1);

    visibility = 'visible';
    await act(async () => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await advance(0);
    expect(live.count).toBe(2);
  });

  it('stops reading once the run has ended', async () => {
    viewAnswers = [() => json(view()), () => json(view({ status: 'SUCCESS' }))];
    const live = answerLive([() => json(frame('Rmlyc3Q='))]);
    renderPage();
    await advance(0);
    await advance(SCREEN_SHARE_POLL_MS);
    expect(screen.queryByRole('region', { name: 'Live page' })).toBeNull();
    const afterEnd = live.count;
    await advance(SCREEN_SHARE_LIVE_POLL_MS * 10);
    expect(live.count).toBe(afterEnd);
  });
});
