import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router-dom';
import { NotFoundPage } from '../components/not-found-page';
import { PlaceholderPage } from '../components/placeholder-page';
import { RouteErrorPage } from '../components/route-error-page';
import { LoginPage } from '../features/auth/components/login-page';
import { LogoutPage } from '../features/auth/components/logout-page';
import { FilePage } from '../features/files/components/file-page';
import { HelpPage } from '../features/help/components/help-page';
import { ForgotPasswordPage } from '../features/password/components/forgot-password-page';
import { ConfirmationPage } from '../features/registration/components/confirmation-page';
import { SignUpPage } from '../features/registration/components/sign-up-page';
import { WelcomePage } from '../features/registration/components/welcome-page';
import { ScreenSharePage } from '../features/screen-share/components/screen-share-page';
import { i18n } from '../lib/i18n';
import { registerNavigate } from '../lib/navigation';
import { PATHS } from '../lib/paths';
import { UI_LABELS } from '../lib/ui-labels';
import { RemoteEngineEntry } from './entry/remote-engine-entry';
import { RootRedirect } from './entry/root-redirect';
import { ScreenShareExecutorEntry } from './entry/screen-share-executor-entry';
import { ScreenShareViewerEntry } from './entry/screen-share-viewer-entry';
import { AccountLayout } from './layout/account-layout';
import { AppLayout } from './layout/app-layout';
import { RequireSession } from './layout/require-session';
import { RootLayout } from './layout/root-layout';
import { DashboardRoute } from './routes/dashboard-route';
import { SettingsRoute } from './routes/settings-route';

/** Page titles take no interpolation values, so `i18n.t(key)` needs no options. */
type TitleKey = Extract<keyof typeof UI_LABELS, `breadcrumb.${string}` | `page.${string}`>;

/** A screen whose feature ships later: its own path and title, one shared placeholder. */
function placeholder(
  path: string,
  titleKey: TitleKey,
  options: { caseSensitive?: boolean } = {},
): RouteObject {
  return {
    path,
    caseSensitive: options.caseSensitive,
    element: <PlaceholderPage title={i18n.t(titleKey)} />,
  };
}

/**
 * The builder (script editor, parser, page view, every dialog) is most of the SPA's code and only
 * operators who edit a flow need it: it loads when its route is first opened.
 */
async function builderRoute() {
  const { BuilderRoute } = await import('./routes/builder-route');
  return { Component: BuilderRoute };
}

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
        element: <AppLayout />,
        children: [
          // Reachable without a session (data spec §6): read-only viewers and the file page.
          { path: PATHS.screenShare, element: <ScreenSharePage /> },
          { path: PATHS.file, element: <FilePage /> },
          placeholder(PATHS.messageById, 'breadcrumb.message'),
          placeholder(PATHS.messageByToken, 'breadcrumb.message'),
          {
            element: <RequireSession />,
            // Inside the app's frame, so its header and menu stay.
            errorElement: <RouteErrorPage />,
            children: [
              { path: PATHS.dashboard, element: <DashboardRoute /> },
              { path: PATHS.settings, element: <SettingsRoute /> },
              { path: PATHS.help, element: <HelpPage /> },
              { path: PATHS.extractor, lazy: builderRoute },
              { path: PATHS.insertor, lazy: builderRoute },
              { path: PATHS.screenShareExecutor, lazy: builderRoute },
              placeholder(PATHS.datasetNew, 'page.dataset.new'),
              placeholder(PATHS.dataset, 'breadcrumb.dataset'),
              placeholder(PATHS.queryNew, 'page.query.new'),
              placeholder(PATHS.query, 'breadcrumb.query', { caseSensitive: true }),
              placeholder(PATHS.schedulerNew, 'page.scheduler.new'),
              placeholder(PATHS.schedulerWizard, 'breadcrumb.scheduler', { caseSensitive: true }),
              placeholder(PATHS.scheduler, 'breadcrumb.scheduler', { caseSensitive: true }),
              placeholder(PATHS.messagingNew, 'breadcrumb.messaging.new'),
              placeholder(PATHS.statementRecognition, 'breadcrumb.statement.recognition'),
              placeholder(PATHS.templateSettings, 'breadcrumb.template.settings'),
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
