import { Navigate, createBrowserRouter, matchRoutes, type RouteObject } from 'react-router-dom';
import { NotFoundPage } from '../components/not-found-page';
import { RouteErrorPage } from '../components/route-error-page';
import { ScreenLoading } from '../components/route-loading';
import { LoginPage } from '../features/auth/components/login-page';
import { LogoutPage } from '../features/auth/components/logout-page';
import { ForgotPasswordPage } from '../features/password/components/forgot-password-page';
import { ConfirmationPage } from '../features/registration/components/confirmation-page';
import { SignUpPage } from '../features/registration/components/sign-up-page';
import { WelcomePage } from '../features/registration/components/welcome-page';
import { apiRequest } from '../lib/api-client';
import { registerNavigate } from '../lib/navigation';
import { PATHS } from '../lib/paths';
import { queryClient, userSettingsQueryKey } from '../lib/query-client';
import { getSession } from '../lib/session';
import { RemoteEngineEntry } from './entry/remote-engine-entry';
import { RootRedirect } from './entry/root-redirect';
import { ScreenShareExecutorEntry } from './entry/screen-share-executor-entry';
import { ScreenShareViewerEntry } from './entry/screen-share-viewer-entry';
import { AccountLayout } from './layout/account-layout';
import { RequireSession } from './layout/require-session';
import { RootLayout } from './layout/root-layout';

/**
 * Starts GET /user/settings while a screen that waits for it loads. On a cold load the request goes
 * out at once and its answer waits for the settings module (and the contracts it parses with),
 * which load here rather than with the login page: waiting for them first cost the dashboard's
 * first paint 170–260 ms (docs/performance.md).
 */
function prefetchUserSettings(): void {
  const { accessToken, isTempPasswordSet } = getSession();
  const isCached = queryClient.getQueryData(userSettingsQueryKey) !== undefined;
  const sent =
    accessToken !== null && !isTempPasswordSet && !isCached
      ? apiRequest('/user/settings', { quiet: true })
      : undefined;
  // Its failure is the query's, once the module reads it; until then nobody awaits it.
  sent?.catch(() => undefined);
  // A chunk that cannot load fails the screen's own import too, which shows the error page.
  import('../features/user-settings/api/get-user-settings').then(
    (module) => module.prefetchUserSettings(sent),
    () => undefined,
  );
}

/**
 * The account screens (login, sign-up, password, confirmation) are in the first download; every
 * screen of the app's frame loads when its route is first opened, so the login page carries none
 * of their code. The builder (page view, action dialogs, and behind them the script editor) is
 * most of the SPA's code and only operators who edit a flow need it. Screens that first wait for
 * the user's settings ask for them while their code loads.
 */
const lazyScreens = {
  appLayout: async () => ({ Component: (await import('./layout/app-layout')).AppLayout }),
  dashboard: async () => {
    prefetchUserSettings();
    return { Component: (await import('./routes/dashboard-route')).DashboardRoute };
  },
  settings: async () => ({ Component: (await import('./routes/settings-route')).SettingsRoute }),
  help: async () => ({ Component: (await import('../features/help/components/help-page')).HelpPage }),
  builder: async () => {
    prefetchUserSettings();
    return { Component: (await import('./routes/builder-route')).BuilderRoute };
  },
  screenShare: async () => ({
    Component: (await import('../features/screen-share/components/screen-share-page')).ScreenSharePage,
  }),
  file: async () => ({ Component: (await import('../features/files/components/file-page')).FilePage }),
  datasetNew: async () => ({
    Component: (await import('../features/datasets/components/new-dataset-page')).NewDatasetPage,
  }),
  dataset: async () => ({
    Component: (await import('../features/datasets/components/dataset-wizard')).DatasetWizardPage,
  }),
  queryNew: async () => ({
    Component: (await import('../features/queries/components/new-query-page')).NewQueryPage,
  }),
  query: async () => ({
    Component: (await import('../features/queries/components/query-wizard')).QueryWizardPage,
  }),
  schedulerNew: async () => ({
    Component: (await import('../features/schedulers/components/new-scheduler-page')).NewSchedulerPage,
  }),
  messageViewer: async () => ({
    Component: (await import('../features/messaging/components/message-viewer-page')).MessageViewerPage,
  }),
  messagingNew: async () => ({
    Component: (await import('../features/messaging/components/new-message-page')).NewMessagePage,
  }),
  statementRecognition: async () => ({
    Component: (await import('../features/statement-recognition/components/statement-recognition-page'))
      .StatementRecognitionPage,
  }),
  templateSettings: async () => ({
    Component: (await import('../features/statement-templates/components/template-settings-page'))
      .TemplateSettingsPage,
  }),
  bulkRun: async () => ({ Component: (await import('./routes/bulk-run-route')).BulkRunRoute }),
  schedulerWizard: async () => ({
    Component: (await import('../features/schedulers/components/scheduler-wizard')).SchedulerWizardPage,
  }),
};

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    // Instead of react-router's default error page: a screen that fails to render, or a lazy
    // chunk gone after a deploy, offers Reload and the way back to the dashboard.
    errorElement: <RouteErrorPage />,
    children: [
      { index: true, element: <RootRedirect /> },

      // Entry redirects (automation spec §2).
      { path: PATHS.screenShareFengineEntry, element: <RemoteEngineEntry isMessaging={false} /> },
      { path: PATHS.messagingFengineEntry, element: <RemoteEngineEntry isMessaging /> },
      { path: PATHS.screenShareViewerEntry, element: <ScreenShareViewerEntry /> },
      { path: PATHS.screenShareExecutorEntry, element: <ScreenShareExecutorEntry /> },

      {
        element: <AccountLayout />,
        children: [
          { path: PATHS.login, element: <LoginPage /> },
          { path: PATHS.signUp, element: <SignUpPage /> },
          { path: PATHS.forgotPassword, element: <ForgotPasswordPage /> },
          { path: PATHS.welcome, element: <WelcomePage /> },
          { path: PATHS.confirmation, element: <ConfirmationPage /> },
          { path: PATHS.logout, element: <LogoutPage /> },
        ],
      },

      {
        lazy: lazyScreens.appLayout,
        // A tab opened on one of these screens shows a spinner while their code (the frame's and
        // the screen's, fetched in parallel) loads; a later move to one keeps the current screen
        // under the root layout's loading overlay instead.
        hydrateFallbackElement: <ScreenLoading />,
        children: [
          // Reachable without a session (data spec §6): read-only viewers and the file page.
          { path: PATHS.screenShare, lazy: lazyScreens.screenShare },
          { path: PATHS.file, lazy: lazyScreens.file },
          { path: PATHS.messageById, lazy: lazyScreens.messageViewer },
          { path: PATHS.messageByToken, lazy: lazyScreens.messageViewer },
          // A link holder replies here without an account; the page itself sends others to /login.
          { path: PATHS.messagingNew, lazy: lazyScreens.messagingNew },
          {
            element: <RequireSession />,
            // Inside the app's frame, so its header and menu stay.
            errorElement: <RouteErrorPage />,
            children: [
              { path: PATHS.dashboard, lazy: lazyScreens.dashboard },
              { path: PATHS.settings, lazy: lazyScreens.settings },
              { path: PATHS.help, lazy: lazyScreens.help },
              { path: PATHS.extractor, lazy: lazyScreens.builder },
              { path: PATHS.insertor, lazy: lazyScreens.builder },
              { path: PATHS.screenShareExecutor, lazy: lazyScreens.builder },
              { path: PATHS.datasetNew, lazy: lazyScreens.datasetNew },
              { path: PATHS.dataset, lazy: lazyScreens.dataset },
              { path: PATHS.queryNew, lazy: lazyScreens.queryNew },
              { path: PATHS.query, caseSensitive: true, lazy: lazyScreens.query },
              { path: PATHS.schedulerNew, lazy: lazyScreens.schedulerNew },
              { path: PATHS.schedulerWizard, caseSensitive: true, lazy: lazyScreens.schedulerWizard },
              // The list of schedulers is on the dashboard (data spec §2).
              {
                path: PATHS.scheduler,
                caseSensitive: true,
                element: <Navigate to={PATHS.dashboard} replace />,
              },
              { path: PATHS.statementRecognition, lazy: lazyScreens.statementRecognition },
              { path: PATHS.templateSettings, lazy: lazyScreens.templateSettings },
              { path: PATHS.bulkRun, lazy: lazyScreens.bulkRun },
            ],
          },
        ],
      },

      {
        element: <AccountLayout />,
        children: [{ path: '*', element: <NotFoundPage /> }],
      },
    ],
  },
];

/** True when only the catch-all not-found route matches the path. */
export function isUnknownPath(pathname: string): boolean {
  const matches = matchRoutes(routes, pathname) ?? [];
  return matches.length === 0 || matches[matches.length - 1]?.route.path === '*';
}

/** Created after the first-load rule has settled the address (see main.tsx). */
export function createAppRouter() {
  const router = createBrowserRouter(routes);
  registerNavigate((to, options) => router.navigate(to, options));
  return router;
}

export type AppRouter = ReturnType<typeof createAppRouter>;
