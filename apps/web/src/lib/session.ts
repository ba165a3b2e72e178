import { useSyncExternalStore } from 'react';
import type { LoginResponse, RefreshResponse } from '@pagewright/shared';

/** localStorage keys, exactly as the specs name them (automation §3, data §3). */
export const SESSION_KEYS = {
  accessToken: 'accessToken',
  refreshToken: 'refreshToken',
  username: 'username',
  rememberMeUser: 'rememberMeUser',
  navigatorToken: 'navigatorToken',
  fengine: 'fengine',
  messaging: 'messaging',
  tempPasswordSet: 'tempPasswordSet',
  id: 'id',
} as const;
type SessionKey = keyof typeof SESSION_KEYS;

/**
 * sessionStorage key marking that this tab went through a sign-in (or a token entry). Its absence on
 * the first page load, without a remembered user, sends the tab to /logout (see first-load.ts).
 */
export const SESSION_FLAG_KEY = 'pagewrightSession';

export interface SessionSnapshot {
  accessToken: string | null;
  refreshToken: string | null;
  username: string | null;
  rememberMeUser: string | null;
  navigatorToken: string | null;
  userId: string | null;
  isRemoteEngine: boolean;
  isMessaging: boolean;
  isTempPasswordSet: boolean;
  /** The session ended because its refresh failed (in memory only; a new sign-in resets it). */
  hasExpired: boolean;
}

let hasExpired = false;
const listeners = new Set<() => void>();
let snapshot: SessionSnapshot = readSnapshot();

function read(key: SessionKey): string | null {
  return localStorage.getItem(SESSION_KEYS[key]);
}

function readSnapshot(): SessionSnapshot {
  return {
    accessToken: read('accessToken'),
    refreshToken: read('refreshToken'),
    username: read('username'),
    rememberMeUser: read('rememberMeUser'),
    navigatorToken: read('navigatorToken'),
    userId: read('id'),
    isRemoteEngine: read('fengine') === 'true',
    isMessaging: read('messaging') === 'true',
    isTempPasswordSet: read('tempPasswordSet') === 'true',
    hasExpired,
  };
}

function changed(): void {
  snapshot = readSnapshot();
  listeners.forEach((listener) => listener());
}

function write(key: SessionKey, value: string | null): void {
  if (value === null) localStorage.removeItem(SESSION_KEYS[key]);
  else localStorage.setItem(SESSION_KEYS[key], value);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab signing in or out changes this tab's session too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || Object.values<string>(SESSION_KEYS).includes(event.key)) changed();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function getSession(): SessionSnapshot {
  return snapshot;
}

export function useSession(): SessionSnapshot {
  return useSyncExternalStore(subscribe, getSession);
}

export function markSessionStarted(): void {
  sessionStorage.setItem(SESSION_FLAG_KEY, 'true');
}

export function hasSessionFlag(): boolean {
  return sessionStorage.getItem(SESSION_FLAG_KEY) !== null;
}

/**
 * Stores what a sign-in (by password or by token) returns and marks this tab as signed in. A real
 * account sign-in leaves any earlier remote-engine mode.
 */
export function storeLogin(login: LoginResponse): void {
  hasExpired = false;
  write('fengine', null);
  write('messaging', null);
  write('id', null);
  write('accessToken', login.accessToken);
  write('refreshToken', login.refreshToken);
  write('username', login.username);
  write('tempPasswordSet', String(login.tempPasswordSet));
  markSessionStarted();
  changed();
}

/** Refresh tokens rotate: the one just used is dead, so the new one always replaces it. */
export function storeRefreshedTokens(tokens: RefreshResponse): void {
  write('accessToken', tokens.accessToken);
  write('refreshToken', tokens.refreshToken);
  write('username', tokens.username);
  changed();
}

export function storeUserId(id: string): void {
  write('id', id);
  changed();
}

export function setTempPasswordSet(isSet: boolean): void {
  write('tempPasswordSet', isSet ? 'true' : null);
  changed();
}

export function setRememberMeUser(email: string | null): void {
  write('rememberMeUser', email);
  changed();
}

export function setNavigatorToken(token: string | null): void {
  write('navigatorToken', token);
  changed();
}

/**
 * Remote-engine entry: the session the F-engine's token was exchanged for, stored as a sign-in
 * stores it (so it refreshes like any other), then marked remote-engine (and messaging).
 */
export function storeRemoteEngineSession(login: LoginResponse, isMessaging: boolean): void {
  clearSession();
  storeLogin(login);
  write('fengine', 'true');
  if (isMessaging) write('messaging', 'true');
  changed();
}

/** Screen-share viewer entry: no account, only the navigator token and the remote-engine mode. */
export function storeViewerSession(navigatorToken: string): void {
  clearSession();
  write('navigatorToken', navigatorToken);
  write('fengine', 'true');
  changed();
}

/** Forgets everything stored for the session; the remembered e-mail survives a logout. */
export function clearSession(): void {
  (Object.keys(SESSION_KEYS) as SessionKey[])
    .filter((key) => key !== 'rememberMeUser')
    .forEach((key) => write(key, null));
  changed();
}

/** The refresh failed: forget the session and remember why, so guards send to the expired-login page. */
export function expireSession(): void {
  hasExpired = true;
  clearSession();
}
