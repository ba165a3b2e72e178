import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { defaultUserSettings } from '@pagewright/shared';
import '../../lib/i18n';
import { PATHS } from '../../lib/paths';
import { clearSession, storeRemoteEngineSession } from '../../lib/session';
import { signInAsAnn } from '../../test-support/session';
import { BuilderRoute } from './builder-route';

// The builder itself needs a live page; here only its "finished" signal matters.
vi.mock('../../features/builder/components/builder-screen', () => ({
  BuilderScreen: ({ onClosed }: { onClosed: () => void }) => (
    <button type="button" onClick={onClosed}>
      Finish
    </button>
  ),
}));
vi.mock('../../features/user-settings/api/get-user-settings', () => ({
  useUserSettings: () => ({ isPending: false, data: defaultUserSettings() }),
}));

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path={PATHS.screenShareExecutor} element={<BuilderRoute />} />
        <Route path={PATHS.extractor} element={<BuilderRoute />} />
        <Route path={PATHS.dashboard} element={<p>Dashboard page</p>} />
      </Routes>
    </MemoryRouter>,
  );
  return userEvent.setup({ delay: null });
}

const remoteEngineSignIn = () =>
  storeRemoteEngineSession(
    {
      accessToken: 'access',
      refreshToken: 'refresh',
      username: 'ann@example.com',
      tempPasswordSet: false,
      enabled: true,
      daysToExpire: 90,
      viewerEmail: null,
    },
    false,
  );

afterEach(() => {
  cleanup();
  clearSession();
});

describe('finishing a builder (spec §4 "Screen-share view")', () => {
  it('shows the screen-share-ended dialog for a navigator in remote-engine mode', async () => {
    remoteEngineSignIn();
    const user = renderAt(`${PATHS.screenShareExecutor}?id=navigator-1`);
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    expect(await screen.findByRole('dialog', { name: 'Screen share ended' })).toBeTruthy();
    expect(screen.queryByText('Dashboard page')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'OK' }));
    expect(await screen.findByText('Dashboard page')).toBeTruthy();
  });

  it('goes to the dashboard without the F-engine flag', async () => {
    signInAsAnn();
    const user = renderAt(`${PATHS.screenShareExecutor}?id=navigator-1`);
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    expect(await screen.findByText('Dashboard page')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('goes to the dashboard for an extractor, even in remote-engine mode', async () => {
    remoteEngineSignIn();
    const user = renderAt(`${PATHS.extractor}?id=extractor-1`);
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    expect(await screen.findByText('Dashboard page')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
