/** Every route of both specs (automation §2, data §2). Case matters: /Query, /Scheduler. */
export const PATHS = {
  root: '/',
  dashboard: '/dashboard',
  extractor: '/extractor',
  insertor: '/insertor',
  screenShareExecutor: '/screen-share-executor',
  screenShare: '/screen-share/:token',
  file: '/file/:token',
  settings: '/settings',
  help: '/help',
  logout: '/logout',
  login: '/login',
  signUp: '/signUp',
  forgotPassword: '/forgotPassword',
  welcome: '/welcome',
  confirmation: '/user/confirmation/:token',
  datasetNew: '/dataset-extractor',
  dataset: '/dataset',
  queryNew: '/query-extractor',
  query: '/Query',
  schedulerNew: '/scheduler-extractor',
  schedulerWizard: '/Scheduler',
  scheduler: '/scheduler',
  messagingNew: '/messaging-new',
  messageById: '/message/id/:id',
  messageByToken: '/message/token/:token',
  statementRecognition: '/statement-recognition-new',
  templateSettings: '/statement-recognition-new/template-settings',
  /** A bulk run's progress and results table (issue 26, item 4). */
  bulkRun: '/bulk-runs/:bulkRunId',
  screenShareFengineEntry: '/screen-share-fengine/:token',
  messagingFengineEntry: '/messaging-fengine/:token',
  screenShareViewerEntry: '/screen-share-viewer/:token',
  screenShareExecutorEntry: '/screen-share-executor/:token',
} as const;

/** Login after a failed token refresh: the page shows the session-expired text. */
export const SESSION_EXPIRED_PATH = '/login?errorToken=1';
/** Settings with the change-password card opened (data spec §4, expired password). */
export const NEED_PASSWORD_PATH = '/settings?needPassword=1';

/** Replaces the `:param` parts of a PATHS entry. */
export function pathTo(path: string, params: Record<string, string>): string {
  return path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

/** Account screens: reachable without a session, and where /logout may send the user back to. */
export const ACCOUNT_PATHS: readonly string[] = [
  PATHS.login,
  PATHS.signUp,
  PATHS.forgotPassword,
  PATHS.welcome,
];

export function isAccountPath(pathname: string): boolean {
  return ACCOUNT_PATHS.some((path) => path.toLowerCase() === pathname.toLowerCase());
}

/**
 * Where /logout continues: `?next=` when it names an account screen (a first load passing through
 * /logout), else the login screen. Never an outside address.
 */
export function afterLogoutPath(next: string | null): string {
  if (next === null || !next.startsWith('/') || next.startsWith('//')) return PATHS.login;
  const pathname = next.split(/[?#]/, 1)[0] ?? '';
  return isAccountPath(pathname) ? next : PATHS.login;
}

/** Paths that must work on a first load without a session (data §2: confirmation, viewers, files). */
export const FIRST_LOAD_EXEMPT_FRAGMENTS = [
  'confirmation',
  'screen-share',
  'messaging-fengine',
  'message',
  'file',
] as const;
