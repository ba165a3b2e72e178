import type { ReactElement } from 'react';
import { afterEach, vi } from 'vitest';
import { cleanup, configure, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { BuilderAction } from '@pagewright/shared';
import '../../../../lib/i18n';

/**
 * Helpers of the builder dialogs' component tests (jsdom). The only network they touch is `fetch`,
 * answered by a small fake server function, never by our API or database.
 */

// Role queries skip the per-element visibility check (getComputedStyle), which makes MUI menus crawl in jsdom.
configure({ defaultHidden: true });

// jsdom lays nothing out; CodeMirror measures text ranges, so they get empty boxes.
const rangePrototype: Partial<Range> = Range.prototype;
if (!rangePrototype.getClientRects) {
  rangePrototype.getClientRects = () => Object.assign([] as DOMRect[], { item: () => null });
  rangePrototype.getBoundingClientRect = () => new DOMRect(0, 0, 0, 0);
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

export function renderDialog(ui: ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const user = userEvent.setup({ delay: null });
  const view = render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
  return {
    user,
    ...view,
    rerender: (next: ReactElement) =>
      view.rerender(<QueryClientProvider client={client}>{next}</QueryClientProvider>),
  };
}

export interface FakeRequest {
  method: string;
  path: string;
  body: unknown;
}

/** Stubs `fetch` with `answer`, which returns a status and a JSON body per request. */
export function fakeServer(answer: (request: FakeRequest) => { status: number; body: unknown }) {
  const requests: FakeRequest[] = [];
  vi.stubGlobal('fetch', (input: string, init: RequestInit = {}) => {
    const request = {
      method: init.method ?? 'GET',
      path: input,
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    requests.push(request);
    const { status, body } = answer(request);
    return Promise.resolve(
      new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
    );
  });
  return requests;
}

/** A draft action as the builder lists it. */
export function draftAction(
  sequence: number,
  type: BuilderAction['type'],
  extra: Partial<BuilderAction> = {},
) {
  return {
    id: `action-${sequence}`,
    sequence,
    type,
    label: null,
    selectorType: 'CSS',
    selectorValue: null,
    xpathValue: null,
    framePath: [],
    fallbackLocators: [],
    textValue: null,
    hasCredentials: false,
    saveOptionsFlag: false,
    options: {},
    pageURL: null,
    timestamp: null,
    validation: 'NOTVALIDATED',
    errorMessage: null,
    isSaved: false,
    hasPageScreenshot: false,
    hasElementScreenshot: false,
    ...extra,
  } satisfies BuilderAction;
}
