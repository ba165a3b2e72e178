import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultUserSettings } from '@pagewright/shared';
import '../../../lib/i18n';
import { DashboardGrid } from './dashboard-grid';

afterEach(cleanup);

describe('the dashboard grid', () => {
  it("offers a new account's hidden Scheduler panel from the dashboard itself", async () => {
    const user = userEvent.setup({ delay: null });
    const onShowPanel = vi.fn();
    render(
      <DashboardGrid settings={defaultUserSettings()} isRemoteEngine={false} onShowPanel={onShowPanel} />,
    );
    const grid = screen.getByTestId('dashboard-grid');
    expect(within(grid).queryByText('Scheduler')).toBeNull();
    const hidden = screen.getByTestId('hidden-panels');
    expect(
      within(hidden)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Show Scheduler']);
    await user.click(within(hidden).getByRole('button', { name: 'Show Scheduler' }));
    expect(onShowPanel).toHaveBeenCalledWith('showScheduler');
  });

  it('names a setting that shows two panels by both, and offers nothing when every panel shows', () => {
    const settings = { ...defaultUserSettings(), showDatasetAndQueries: 'false', showScheduler: 'true' };
    const { unmount } = render(
      <DashboardGrid settings={settings} isRemoteEngine={false} onShowPanel={vi.fn()} />,
    );
    expect(screen.getByRole('button', { name: 'Show Datasets and Queries' })).toBeTruthy();
    unmount();
    render(
      <DashboardGrid
        settings={{ ...settings, showDatasetAndQueries: 'true' }}
        isRemoteEngine={false}
        onShowPanel={vi.fn()}
      />,
    );
    expect(screen.queryByTestId('hidden-panels')).toBeNull();
  });

  it('still offers the hidden panels when every panel is off', () => {
    const off = Object.fromEntries(
      Object.entries(defaultUserSettings()).map(([name, value]) => [
        name,
        value === 'true' ? 'false' : value,
      ]),
    );
    render(
      <DashboardGrid
        settings={{ ...defaultUserSettings(), ...off }}
        isRemoteEngine={false}
        onShowPanel={vi.fn()}
      />,
    );
    expect(screen.getByRole('button', { name: 'Show Extractors' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Show Statement Recognition' })).toBeTruthy();
  });
});
