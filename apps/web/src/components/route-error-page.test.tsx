import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet, RouterProvider, createMemoryRouter, type RouteObject } from 'react-router-dom';
import { routes } from '../app/router';
import { i18n } from '../lib/i18n';
import { PATHS } from '../lib/paths';
import { RouteErrorPage } from './route-error-page';

// The router brings the version label, whose values vite.config.ts defines at build time.
vi.hoisted(() => Object.assign(globalThis, { __APP_VERSION__: 'test', __BUILD_HASH__: 'test' }));

afterEach(cleanup);

/** A lazy route whose chunk is gone, as after a deploy replaced the build the tab was loaded from. */
const missingChunk = () =>
  Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/builder-route-0ld.js'));

describe('a route that fails to load', () => {
  it('shows a short text, Reload and a way back to the dashboard instead of the default error page', async () => {
    const router = createMemoryRouter(
      [
        {
          element: <Outlet />,
          errorElement: <RouteErrorPage />,
          children: [
            { path: '/extractor', lazy: missingChunk },
            { path: PATHS.dashboard, element: <p>Dashboard</p> },
          ],
        },
      ],
      { initialEntries: ['/extractor'] },
    );
    render(<RouterProvider router={router} />);

    expect(await screen.findByText(i18n.t('route.error.title'))).toBeTruthy();
    expect(screen.getByText(i18n.t('route.error.text'))).toBeTruthy();
    expect(screen.queryByText(/Unexpected Application Error/u)).toBeNull();
    expect(screen.getByRole('button', { name: i18n.t('route.error.reload') })).toBeTruthy();
    await userEvent
      .setup({ delay: null })
      .click(screen.getByRole('link', { name: i18n.t('route.error.dashboard') }));
    expect(await screen.findByText('Dashboard')).toBeTruthy();
  });

  it('is the error element of the app and of every lazily loaded route', () => {
    const unguarded: string[] = [];
    const walk = (list: RouteObject[], isGuarded: boolean) => {
      for (const route of list) {
        const guarded = isGuarded || route.errorElement !== undefined;
        if (route.lazy && !guarded) unguarded.push(route.path ?? '(no path)');
        walk(route.children ?? [], guarded);
      }
    };
    walk(routes, false);
    expect(unguarded).toEqual([]);
    expect(routes[0]?.errorElement).toBeDefined();
  });
});
