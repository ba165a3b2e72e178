import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { defaultUserSettings } from '@pagewright/shared';
import '../../../lib/i18n';
import { UserSettingsCard } from './user-settings-card';
import { urlOf } from '../../../test-support/fetch';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** How the next PUT answers: held until the test releases it, or refused. */
let answerSave: (request: Request) => Promise<Response>;

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = urlOf(input);
      if (url === '/api/user/settings') return Promise.resolve(json(defaultUserSettings()));
      if (url.startsWith('/api/user/settings/') && init?.method === 'PUT')
        return answerSave(new Request(`http://localhost${url}`, init));
      return Promise.reject(new Error(`unexpected call ${url}`));
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const isChecked = (element: HTMLElement) => (element as HTMLInputElement).checked;

function renderCard() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <UserSettingsCard />
    </QueryClientProvider>,
  );
}

describe('panel switches', () => {
  it('show the new state the moment they are clicked, while the save is under way', async () => {
    answerSave = () => new Promise<Response>(() => undefined);
    renderCard();
    const insertors = await screen.findByLabelText('Insertors');
    expect(isChecked(insertors)).toBe(true);

    // Checked synchronously after the click: no timer or promise may run in between.
    fireEvent.click(insertors);
    expect(isChecked(insertors)).toBe(false);
    fireEvent.click(screen.getByLabelText('Scheduler'));
    expect(isChecked(screen.getByLabelText('Scheduler'))).toBe(true);
    expect(isChecked(insertors)).toBe(false);
  });

  it('go back to the saved state when the API refuses the change', async () => {
    answerSave = () => Promise.resolve(json({ message: 'Setting could not be saved', code: 400 }, 400));
    renderCard();
    const insertors = await screen.findByLabelText('Insertors');
    fireEvent.click(insertors);
    expect(isChecked(insertors)).toBe(false);
    await waitFor(() => expect(isChecked(insertors)).toBe(true));
  });
});
