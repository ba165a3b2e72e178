import { useEffect, useLayoutEffect, useRef } from 'react';
import {
  LIVE_SOCKET_CLOSE,
  type LiveClientMessage,
  type LiveEvent,
  liveEventSchema,
} from '@pagewright/shared';
import { apiRequest } from './api-client';
import { getSession } from './session';

type LiveEventType = LiveEvent['type'];
type Listener = (event: LiveEvent) => void;

const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 10_000;

/**
 * One WebSocket to /api/ws per tab, open while any screen listens (frames, validation progress,
 * run status, pending asks); it asks for frames only while a screen shows a live view. Reconnects with backoff; an expired access token is renewed through
 * an ordinary API call (which refreshes the session) before the next attempt.
 */
class LiveEventsConnection {
  private socket: WebSocket | null = null;
  private readonly listeners = new Set<Listener>();
  /** Listeners of frames: the server streams the live page only while there is one. */
  private readonly frameListeners = new Set<Listener>();
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private reconnectDelay = RECONNECT_MIN_MS;

  subscribe(listener: Listener, wantsFrames: boolean): () => void {
    this.listeners.add(listener);
    if (wantsFrames) this.frameListeners.add(listener);
    this.connect();
    this.sendWatch();
    return () => {
      this.listeners.delete(listener);
      this.frameListeners.delete(listener);
      if (this.listeners.size === 0) this.disconnect();
      else this.sendWatch();
    };
  }

  /** Tells the server whether this tab shows a live view now. */
  private sendWatch(): void {
    const socket = this.socket;
    if (socket?.readyState !== WebSocket.OPEN) return;
    const message: LiveClientMessage = { watch: this.frameListeners.size > 0 ? ['frame'] : [] };
    socket.send(JSON.stringify(message));
  }

  private connect(): void {
    if (this.socket || this.reconnectTimer) return;
    const { accessToken } = getSession();
    if (!accessToken) return;
    const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
    const url = `${scheme}://${window.location.host}/api/ws?accessToken=${encodeURIComponent(accessToken)}`;
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => this.sendWatch();
    socket.onmessage = (message) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(String(message.data));
      } catch {
        return;
      }
      const event = liveEventSchema.safeParse(parsed);
      if (!event.success) return;
      if (event.data.type === 'ready') this.reconnectDelay = RECONNECT_MIN_MS;
      for (const listener of [...this.listeners]) listener(event.data);
    };
    socket.onclose = (closed) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.listeners.size === 0 || closed.code === LIVE_SOCKET_CLOSE.passwordChangeRequired) return;
      const renew =
        closed.code === LIVE_SOCKET_CLOSE.unauthorized
          ? apiRequest('/user/', { quiet: true }).catch(() => undefined)
          : Promise.resolve();
      const delay = this.reconnectDelay;
      this.reconnectDelay = Math.min(this.reconnectDelay * 2, RECONNECT_MAX_MS);
      this.reconnectTimer = setTimeout(() => {
        this.reconnectTimer = null;
        void renew.then(() => this.listeners.size > 0 && this.connect());
      }, delay);
    };
  }

  private disconnect(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const socket = this.socket;
    this.socket = null;
    socket?.close();
  }
}

const connection = new LiveEventsConnection();

/** Listens to live events of the given types while the calling component is mounted. */
export function useLiveEvents<T extends LiveEventType>(
  types: readonly T[],
  onEvent: (event: Extract<LiveEvent, { type: T }>) => void,
  isEnabled = true,
): void {
  const handler = useRef(onEvent);
  // The latest handler, without resubscribing the socket on every render.
  useLayoutEffect(() => {
    handler.current = onEvent;
  });
  const typeKey = types.join(',');
  useEffect(() => {
    if (!isEnabled) return undefined;
    const wanted = new Set<string>(typeKey.split(','));
    return connection.subscribe((event) => {
      if (wanted.has(event.type)) handler.current(event as Extract<LiveEvent, { type: T }>);
    }, wanted.has('frame'));
  }, [typeKey, isEnabled]);
}
