import { Suspense, lazy, type ComponentType } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { Link, Outlet, RouterProvider, createMemoryRouter, type RouteObject } from 'react-router-dom';
import { routes } from '../app/router';
import '../lib/i18n';
import { RouteErrorPage } from './route-error-page';
import { DialogLoading, NavigationLoading, ScreenLoading } from './route-loading';

// The router brings the version label, whose values vite.config.ts defines at build time.
vi.hoisted(() => Object.assign(globalThis, { __APP_VERSION__: 'test', __BUILD_HASH__: 'test' }));

afterEach(cleanup);

/** A screen's code that arrives when the test says so. */
function deferredScreen(text: string) {
  let arrive = () => {};
  const loaded = new Promise<{ Component: ComponentType }>((resolve) => {
    arrive = () => resolve({ Component: () => <p>{text}</p> });
  });
  return { lazy: () => loaded, arrive: () => act(async () => arrive()) };
}

const isShown = (element: HTMLElement) => element.style.visibility !== 'hidden';

describe('screens whose code loads when first opened', () => {
  it('every lazily loaded route of the app has a loading screen for a tab opened on it', () => {
    const uncovered: string[] = [];
    const walk = (list: RouteObject[], isCovered: boolean) => {
      for (const route of list) {
        const covered = isCovered || route.hydrateFallbackElement !== undefined;
        if (route.lazy && !covered) uncovered.push(route.path ?? '(layout)');
        walk(route.children ?? [], covered);
      }
    };
    walk(routes, false);
    expect(uncovered).toEqual([]);
  });

  it('a tab opened on such a screen shows the loading screen, then the screen', async () => {
    const dashboard = deferredScreen('Dashboard');
    const router = createMemoryRouter(
      [
        {
          hydrateFallbackElement: <ScreenLoading />,
          children: [{ path: '/dashboard', lazy: dashboard.lazy }],
        },
      ],
      { initialEntries: ['/dashboard'] },
    );
    render(<RouterProvider router={router} />);
    expect(screen.getByTestId('screen-loading')).toBeTruthy();

    await dashboard.arrive();
    expect(await screen.findByText('Dashboard')).toBeTruthy();
    expect(screen.queryByTestId('screen-loading')).toBeNull();
  });

  it('a move to such a screen keeps the current one under the loading overlay until its code is there', async () => {
    const settings = deferredScreen('Settings');
    const router = createMemoryRouter(
      [
        {
          element: (
            <>
              <NavigationLoading />
              <Outlet />
            </>
          ),
          children: [
            { path: '/login', element: <Link to="/settings">Go</Link> },
            { path: '/settings', lazy: settings.lazy },
          ],
        },
      ],
      { initialEntries: ['/login'] },
    );
    render(<RouterProvider router={router} />);
    expect(isShown(screen.getByTestId('navigation-loading'))).toBe(false);

    await act(async () => screen.getByRole('link', { name: 'Go' }).click());
    expect(screen.getByRole('link', { name: 'Go' })).toBeTruthy();
    expect(isShown(screen.getByTestId('navigation-loading'))).toBe(true);

    await settings.arrive();
    expect(await screen.findByText('Settings')).toBeTruthy();
    // The overlay fades out.
    await waitFor(() => expect(isShown(screen.getByTestId('navigation-loading'))).toBe(false));
  });

  it('a dialog whose code cannot be fetched shows the route error page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const MissingDialog = lazy(() =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/ask-dialog-0ld.js')),
    );
    const router = createMemoryRouter([
      {
        path: '/',
        errorElement: <RouteErrorPage />,
        element: (
          <Suspense fallback={<DialogLoading />}>
            <MissingDialog />
          </Suspense>
        ),
      },
    ]);
    render(<RouterProvider router={router} />);
    expect(await screen.findByTestId('route-error-page')).toBeTruthy();
  });
});
