import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultUserSettings } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';
import { queryClient, userSettingsQueryKey } from '../../../lib/query-client';
import { storeLogin } from '../../../lib/session';
import { urlOf } from '../../../test-support/fetch';
import { prefetchUserSettings } from './get-user-settings';

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

let answer: unknown;
const fetchMock = vi.fn((input: RequestInfo | URL) => {
  const url = urlOf(input);
  if (url === '/api/user/settings') return Promise.resolve(json(answer));
  return Promise.reject(new Error(`unexpected call ${url}`));
});

beforeEach(() => {
  queryClient.clear();
  fetchMock.mockClear();
  vi.stubGlobal('fetch', fetchMock);
  storeLogin({
    accessToken: 'access',
    refreshToken: 'refresh',
    username: 'ada@example.com',
    tempPasswordSet: false,
    enabled: true,
    daysToExpire: 90,
    viewerEmail: null,
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

describe('the settings asked for before their module arrived (the router sends the call at once)', () => {
  it('are read through the contract with the defaults filled in, without asking again', async () => {
    answer = { showScheduler: 'true' };
    const sent = apiRequest('/user/settings', { quiet: true });
    prefetchUserSettings(sent);
    await vi.waitFor(() => expect(queryClient.getQueryData(userSettingsQueryKey)).toBeDefined());
    expect(queryClient.getQueryData(userSettingsQueryKey)).toEqual({
      ...defaultUserSettings(),
      showScheduler: 'true',
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('fail the query as a call with the schema would when the answer is not the contract', async () => {
    answer = { showScheduler: 42 };
    prefetchUserSettings(apiRequest('/user/settings', { quiet: true }));
    await vi.waitFor(() => expect(queryClient.getQueryState(userSettingsQueryKey)?.status).toBe('error'));
    expect(queryClient.getQueryState(userSettingsQueryKey)?.error).toMatchObject({
      code: 'INVALID_RESPONSE',
    });
  });
});
