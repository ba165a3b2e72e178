import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { MESSAGES, type LoginResponse } from '@pagewright/shared';
import { Toaster } from '../../components/toaster';
import '../../lib/i18n';
import { PATHS } from '../../lib/paths';
import { SESSION_KEYS, clearSession, getSession } from '../../lib/session';
import { closeToasts } from '../../test-support/dom';
import { sentJson } from '../../test-support/fetch';
import { RemoteEngineEntry } from './remote-engine-entry';

const ENGINE_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJlbmdpbmUtdXNlciJ9.c2lnbmF0dXJl';
const LOGIN: LoginResponse = {
  accessToken: 'pagewright-access',
  refreshToken: 'pagewright-refresh',
  username: 'ann@example.com',
  tempPasswordSet: false,
  enabled: true,
  daysToExpire: 90,
  viewerEmail: null,
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let fetchMock: Mock<typeof fetch>;

function renderEntry(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path={PATHS.screenShareFengineEntry} element={<RemoteEngineEntry isMessaging={false} />} />
        <Route path={PATHS.messagingFengineEntry} element={<RemoteEngineEntry isMessaging />} />
        <Route path={PATHS.dashboard} element={<p>Dashboard page</p>} />
        <Route path={PATHS.login} element={<p>Login page</p>} />
      </Routes>
      <Toaster />
    </MemoryRouter>,
  );
}

beforeEach(() => {
  clearSession();
  fetchMock = vi.fn<typeof fetch>(() => Promise.resolve(json(LOGIN)));
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  closeToasts();
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
});

describe('remote-engine entry', () => {
  it('exchanges the engine token and stores the session it gets, marked remote-engine', async () => {
    renderEntry(`/screen-share-fengine/${ENGINE_TOKEN}`);
    expect(await screen.findByText('Dashboard page')).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/auth/fengine/exchange');
    expect(sentJson(init)).toEqual({ token: ENGINE_TOKEN });
    expect(getSession()).toMatchObject({
      accessToken: LOGIN.accessToken,
      refreshToken: LOGIN.refreshToken,
      isRemoteEngine: true,
      isMessaging: false,
    });
    expect(localStorage.getItem(SESSION_KEYS.accessToken)).not.toBe(ENGINE_TOKEN);
  });

  it('marks the messaging entry as messaging too', async () => {
    renderEntry(`/messaging-fengine/${ENGINE_TOKEN}`);
    expect(await screen.findByText('Dashboard page')).toBeTruthy();
    expect(getSession()).toMatchObject({ isRemoteEngine: true, isMessaging: true });
  });

  it('refuses a two-part token without asking the API', async () => {
    renderEntry('/screen-share-fengine/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0');
    expect(await screen.findByText('Login page')).toBeTruthy();
    expect(await screen.findByText(MESSAGES['error.invalid.token.parameter'])).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(getSession().accessToken).toBeNull();
  });

  it('goes to the login page with the invalid-token error when the API refuses the token', async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(
        json(
          { message: MESSAGES['error.invalid.token.parameter'], code: 'UNAUTHORIZED', field: 'token' },
          401,
        ),
      ),
    );
    renderEntry(`/screen-share-fengine/${ENGINE_TOKEN}`);
    expect(await screen.findByText('Login page')).toBeTruthy();
    expect(await screen.findByText(MESSAGES['error.invalid.token.parameter'])).toBeTruthy();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(getSession()).toMatchObject({ accessToken: null, isRemoteEngine: false });
  });
});
