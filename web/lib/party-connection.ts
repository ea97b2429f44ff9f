/**
 * The one place the SPA opens a real-time room (api-contract, "Real time"): a PartySocket to
 * `/parties/{party}/{room}?token=<ticket>` on this origin, where the ticket is fetched fresh for every
 * connect (`query` is resolved by partysocket at each attempt). Reconnect delays are randomized per
 * client, so a restarted worker is not hit by every client in the same second (partysocket's own
 * delays have no jitter). Retrying stops after an auth refusal (close code 4001 or 1008, a ticket
 * refused with a 4xx) or after several connects in a row failed (a refused upgrade, or a socket closed
 * within a second), or when the server closed it as the user's oldest of too many sockets (4429); it
 * starts again when the browser comes back online or the tab becomes visible (after a refusal, never).
 * While a socket is not open, callers poll (see pollInterval in lib/activity.ts).
 */
import PartySocket from "partysocket";
import type { SocketTicketResponse } from "@contract/messages";
import { CLOSE_CODES, serverEventSchema, type ClientEvent, type ServerEvent } from "@party/protocol";
import { ApiError, apiRequest } from "./api-client";

/**
 * Close codes after which reconnecting is pointless: a refusal (not authorized / policy violation), or
 * the room or the account is gone (party/protocol CLOSE_CODES).
 */
export const AUTH_CLOSE_CODES: ReadonlySet<number> = new Set([4001, 1008, CLOSE_CODES.conversationDeleted, CLOSE_CODES.accountDeleted]);
/** While open, a ping this often; no answer within PONG_TIMEOUT_MS means a dead socket: reconnect. */
export const HEARTBEAT_MS = 60_000;
export const PONG_TIMEOUT_MS = 10_000;
/**
 * A socket counts as connected (and polling stops) once it has stayed open this long: a proxy or a
 * server that accepts and drops at once must not switch polling off and on (each switch restarts
 * the poll timer).
 */
export const STABLE_OPEN_MS = 1000;
/** Connection attempts in a row that close before opening (a refused upgrade looks like this). */
export const MAX_FAILED_CONNECTS = 5;

export interface ReconnectDelays {
  minReconnectionDelay: number;
  maxReconnectionDelay: number;
  reconnectionDelayGrowFactor: number;
}

/** Per-client randomized delays: the first retry after 1-3 s, then x1.5, at most 20-30 s. */
export function reconnectDelays(random: () => number = Math.random): ReconnectDelays {
  return {
    minReconnectionDelay: Math.round(1000 + random() * 2000),
    maxReconnectionDelay: Math.round(20_000 + random() * 10_000),
    reconnectionDelayGrowFactor: 1.5,
  };
}

/** A server event, or null for anything that is not one (bad JSON, unknown type, wrong shape). */
export function parseServerEvent(data: unknown): ServerEvent | null {
  if (typeof data !== "string") return null;
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = serverEventSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

export const fetchSocketTicket = () =>
  apiRequest<SocketTicketResponse>("messages/socket-ticket", { method: "POST" }).then((r) => r.data.ticket);

/** A ticket refused for good (signed out, not allowed): 4xx other than 408 and 429. */
const isRefusal = (err: unknown) => err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429;

export interface PartyConnection {
  party: string;
  room: string;
  onEvent: (event: ServerEvent) => void;
  onStatus: (connected: boolean) => void;
  /** For tests and other runtimes; the browser's WebSocket otherwise. */
  WebSocket?: typeof WebSocket;
  getTicket?: () => Promise<string>;
  random?: () => number;
}

/** Opens the room and keeps it open; returns the function that closes it for good. */
export function connectParty({ party, room, onEvent, onStatus, WebSocket: WS, getTicket = fetchSocketTicket, random }: PartyConnection): () => void {
  let failedConnects = 0;
  let opened = false;
  /** No more retries: refused (for good) or gave up after repeated failures (until back online). */
  let stopped = false;
  let refused = false;
  let socket: PartySocket | null = null;

  const stop = () => {
    stopped = true;
    refused = true;
    // close() during a pending connect is safe: partysocket checks it before opening.
    queueMicrotask(() => socket?.close());
  };

  socket = new PartySocket({
    host: window.location.host,
    protocol: window.location.protocol === "https:" ? "wss" : "ws",
    party,
    room,
    ...reconnectDelays(random),
    WebSocket: WS,
    query: async () => {
      // Closed before this attempt began (React's StrictMode mounts twice): no ticket for nothing.
      if (stopped) throw new Error("closed");
      try {
        return { token: await getTicket() };
      } catch (err) {
        if (isRefusal(err)) stop();
        throw err;
      }
    },
    shouldReconnectOnClose: (event) => {
      if (stopped) return false;
      // The user opened more sockets elsewhere (other tabs) and this was the oldest: poll, and take the
      // socket back only when this tab is looked at again, so tabs never close each other in turn.
      if (event.code === CLOSE_CODES.tooManySockets) {
        stopped = true;
        return false;
      }
      if (AUTH_CLOSE_CODES.has(event.code)) {
        stopped = true;
        refused = true;
        return false;
      }
      if (!opened) failedConnects += 1;
      opened = false;
      if (failedConnects >= MAX_FAILED_CONNECTS) {
        stopped = true;
        return false;
      }
      return true;
    },
  });

  // Liveness: a socket that died quietly (a laptop asleep, a dropped network) would keep polling off.
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let pongTimer: ReturnType<typeof setTimeout> | undefined;
  let stableTimer: ReturnType<typeof setTimeout> | undefined;
  let reported = false;
  const stopHeartbeat = () => {
    clearInterval(heartbeat);
    clearTimeout(pongTimer);
    clearTimeout(stableTimer);
  };
  const ping: ClientEvent = { type: "ping" };

  socket.addEventListener("open", () => {
    stopHeartbeat();
    // Closed again before STABLE_OPEN_MS: counted as a failed connect (a refusal after the upgrade).
    stableTimer = setTimeout(() => {
      opened = true;
      failedConnects = 0;
      reported = true;
      onStatus(true);
    }, STABLE_OPEN_MS);
    heartbeat = setInterval(() => {
      socket?.send(JSON.stringify(ping));
      clearTimeout(pongTimer);
      pongTimer = setTimeout(() => socket?.reconnect(), PONG_TIMEOUT_MS);
    }, HEARTBEAT_MS);
  });
  socket.addEventListener("close", () => {
    stopHeartbeat();
    if (reported) onStatus(false);
    reported = false;
  });
  socket.addEventListener("message", (event) => {
    clearTimeout(pongTimer);
    const parsed = parseServerEvent(event.data);
    if (parsed) onEvent(parsed);
  });

  // Gave up after repeated failures (not a refusal): try again once the network is back, or when the
  // person returns to the tab.
  const onOnline = () => {
    if (!stopped || refused || !socket) return;
    stopped = false;
    failedConnects = 0;
    // Jittered: after a campus-wide network blip every tab comes back online at the same moment.
    setTimeout(() => socket?.reconnect(), 1000 + (random ?? Math.random)() * 4000);
  };
  const onVisible = () => {
    if (document.visibilityState === "visible") onOnline();
  };
  window.addEventListener("online", onOnline);
  document.addEventListener("visibilitychange", onVisible);

  return () => {
    stopHeartbeat();
    window.removeEventListener("online", onOnline);
    document.removeEventListener("visibilitychange", onVisible);
    stopped = true;
    refused = true;
    const s = socket;
    socket = null;
    s?.close();
    if (reported) onStatus(false);
    reported = false;
  };
}
