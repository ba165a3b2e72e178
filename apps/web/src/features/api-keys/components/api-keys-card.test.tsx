import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ApiKey, CreatedApiKey } from '@pagewright/shared';
import '../../../lib/i18n';
import { ApiKeysCard } from './api-keys-card';
import { sentJson, urlOf } from '../../../test-support/fetch';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const KEY = `pw_${'A'.repeat(43)}`;
const existing: ApiKey = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Nightly export',
  prefix: 'pw_Zz9Yy8Xx7',
  scope: 'READ',
  createdAt: '2026-11-20T10:00:00.000Z',
  lastUsedAt: null,
  expiresAt: null,
  revoked: false,
  expired: false,
};

let keys: ApiKey[];
let posted: unknown;
const writeText = vi.fn(() => Promise.resolve());

beforeEach(() => {
  keys = [existing];
  posted = undefined;
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = urlOf(input);
      if (url === '/api/user/api-keys' && (init?.method ?? 'GET') === 'GET')
        return Promise.resolve(json(keys));
      if (url === '/api/user/api-keys' && init?.method === 'POST') {
        posted = sentJson(init);
        const created: CreatedApiKey = {
          ...existing,
          id: '22222222-2222-4222-8222-222222222222',
          name: 'CI',
          scope: 'RUN',
          prefix: KEY.slice(0, 12),
          expiresAt: '2026-12-27T10:00:00.000Z',
          key: KEY,
        };
        const { key: _key, ...listed } = created;
        keys = [listed, ...keys];
        return Promise.resolve(json(created, 201));
      }
      if (url === `/api/user/api-keys/${existing.id}` && init?.method === 'DELETE') {
        keys = keys.map((key) => (key.id === existing.id ? { ...key, revoked: true } : key));
        return Promise.resolve(json({ message: 'API key revoked' }));
      }
      return Promise.reject(new Error(`unexpected call ${init?.method ?? 'GET'} ${url}`));
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  writeText.mockClear();
});

function renderCard() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ApiKeysCard />
    </QueryClientProvider>,
  );
}

describe('the API keys card', () => {
  it('lists keys by their prefix, never in full', async () => {
    renderCard();
    const row = (await screen.findByText('Nightly export')).closest('tr')!;
    expect(within(row).getByText('pw_Zz9Yy8Xx7…')).toBeTruthy();
    expect(within(row).getByText('Read')).toBeTruthy();
    expect(within(row).getAllByText('Never').length).toBe(2);
    expect(within(row).getByText('Active')).toBeTruthy();
  });

  it('creates a key, shows it once with a warning and a copy button', async () => {
    renderCard();
    await screen.findByText('Nightly export');
    const create = screen.getByRole('button', { name: 'Create key' });
    expect((create as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Key name'), { target: { value: 'CI' } });
    fireEvent.mouseDown(screen.getByLabelText('Scope'));
    fireEvent.click(await screen.findByRole('option', { name: 'Read and run' }));
    fireEvent.change(screen.getByLabelText('Expires in days (optional)'), { target: { value: '30' } });
    fireEvent.click(create);

    const dialog = await screen.findByRole('dialog', { name: 'Your new API key' });
    expect(within(dialog).getByText('Copy this key now: it will not be shown again.')).toBeTruthy();
    expect(within(dialog).getByTestId<HTMLInputElement>('created-api-key').value).toBe(KEY);
    expect(posted).toEqual({ name: 'CI', scope: 'RUN', expiresInDays: 30 });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy key' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(KEY));

    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Once closed, the key is nowhere on the page: only its prefix in the list.
    expect(await screen.findByText(`${KEY.slice(0, 12)}…`)).toBeTruthy();
    expect(document.body.textContent).not.toContain(KEY);
  });

  it('revokes a key after a confirmation', async () => {
    renderCard();
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke Nightly export' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke the key Nightly export?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    const row = (await screen.findByText('Revoked')).closest('tr')!;
    expect(within(row).queryByRole('button', { name: 'Revoke Nightly export' })).toBeNull();
  });
});
