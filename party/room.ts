import { type Connection, type ConnectionContext, Server, type WSMessage } from "partyserver";
import { clientEventSchema, USER_HEADER, type ServerEvent } from "./protocol";

interface ConnectionState {
  userId: string;
}

const userTag = (userId: string) => `user:${userId}`;
const OPEN = 1;

/**
 * What both rooms share: hibernating sockets that carry the verified user id, a ping/pong for
 * liveness, and publish() — called by the worker over RPC — which pushes an event to every socket.
 */
export abstract class Room extends Server<Env> {
  static override options = { hibernate: true };

  override onConnect(connection: Connection<ConnectionState>, ctx: ConnectionContext) {
    const userId = ctx.request.headers.get(USER_HEADER);
    if (!userId) {
      // Only reachable by bypassing the worker's routing: refuse rather than trust.
      connection.close(1008, "Not authenticated");
      return;
    }
    connection.setState({ userId });
  }

  /** Tags each socket with its user, so closeAll(…, userId) finds one person's sockets. */
  override getConnectionTags(_connection: Connection, ctx: ConnectionContext): string[] {
    const userId = ctx.request.headers.get(USER_HEADER);
    return userId ? [userTag(userId)] : [];
  }

  override onMessage(connection: Connection<ConnectionState>, message: WSMessage) {
    if (typeof message !== "string") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      return;
    }
    const event = clientEventSchema.safeParse(parsed);
    if (event.success && event.data.type === "ping") this.sendTo(connection, { type: "pong" });
  }

  protected sendTo(connection: Connection, event: ServerEvent) {
    connection.send(JSON.stringify(event satisfies ServerEvent));
  }

  /**
   * Pushes one event to every connected socket of this room; a user listed in `perUser` gets their
   * own version instead (the sender of a flagged message does not see its safety notice).
   */
  async publish(event: ServerEvent, perUser?: Record<string, ServerEvent>): Promise<number> {
    const data = JSON.stringify(event satisfies ServerEvent);
    const own = new Map(Object.entries(perUser ?? {}).map(([userId, e]) => [userId, JSON.stringify(e satisfies ServerEvent)]));
    let delivered = 0;
    for (const connection of this.getConnections<ConnectionState>()) {
      const userId = connection.state?.userId;
      connection.send((userId !== undefined && own.get(userId)) || data);
      delivered++;
    }
    return delivered;
  }

  /**
   * How many sockets are open here, or one user's (0: not online). Counts the hibernated sockets
   * without waking them, unlike getConnections().
   */
  async connectionCount(userId?: string): Promise<number> {
    return this.ctx.getWebSockets(userId ? userTag(userId) : undefined).filter((ws) => ws.readyState === OPEN).length;
  }

  /** The connection ids of one user's open sockets here (worker/services/room-access counts them). */
  async openConnectionIds(userId: string): Promise<string[]> {
    return [...this.getConnections(userTag(userId))].filter((c) => c.readyState === OPEN).map((c) => c.id);
  }

  /** Closes one socket by its connection id; false when it is not open here. */
  async closeConnection(id: string, code: number, reason: string): Promise<boolean> {
    const connection = this.getConnection(id);
    if (!connection) return false;
    try {
      connection.close(code, reason);
    } catch {
      // Already closing.
    }
    return true;
  }

  /** Closes every socket of this room, or only those of one user; returns how many. */
  async closeAll(code: number, reason: string, userId?: string): Promise<number> {
    let closed = 0;
    for (const connection of this.getConnections(userId ? userTag(userId) : undefined)) {
      try {
        connection.close(code, reason);
        closed++;
      } catch {
        // Already closing: nothing to do.
      }
    }
    return closed;
  }
}
