import type { ServerEvent } from "../../../party/protocol";
import { worker } from "./api";

/** Asks the worker to upgrade `path` (under /parties/) to a WebSocket, as a browser would. */
export function connect(path: string): Promise<Response> {
  return worker.fetch(new Request(`http://localhost${path}`, { headers: { Upgrade: "websocket" } }));
}

export interface OpenSocket {
  socket: WebSocket;
  /** The next event the server sent (rejects after `timeoutMs`). */
  next(timeoutMs?: number): Promise<ServerEvent>;
  /** Resolves with the close code once the server closes the socket. */
  closed: Promise<{ code: number; reason: string }>;
  /** True when nothing but a pong comes back for a ping (no other event was waiting). */
  quiet(): Promise<boolean>;
}

/** Accepts the client end of an upgraded socket and queues what it receives. */
export function open(res: Response): OpenSocket {
  if (res.status !== 101 || !res.webSocket) throw new Error(`expected an upgrade, got ${res.status}`);
  const socket = res.webSocket;
  const received: ServerEvent[] = [];
  const waiters: (() => void)[] = [];
  let onClose: (value: { code: number; reason: string }) => void = () => {};
  const closed = new Promise<{ code: number; reason: string }>((resolve) => (onClose = resolve));
  socket.addEventListener("message", (event) => {
    received.push(JSON.parse(String(event.data)) as ServerEvent);
    waiters.splice(0).forEach((w) => w());
  });
  socket.addEventListener("close", (event) => onClose({ code: event.code, reason: event.reason }));
  socket.accept();
  const next = async (timeoutMs = 3000): Promise<ServerEvent> => {
    if (!received.length) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no event within the time limit")), timeoutMs);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return received.shift()!;
  };
  const quiet = async () => {
    socket.send(JSON.stringify({ type: "ping" }));
    return (await next()).type === "pong";
  };
  return { socket, next, closed, quiet };
}
