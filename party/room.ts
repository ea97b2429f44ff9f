import { type Connection, type ConnectionContext, Server, type WSMessage } from "partyserver";
import { clientEventSchema, type ServerEvent } from "./protocol";
import { USER_HEADER } from "./auth";

interface ConnectionState {
  userId: string;
}

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

  /** Pushes one event to every connected socket of this room. */
  async publish(event: ServerEvent): Promise<number> {
    const data = JSON.stringify(event satisfies ServerEvent);
    let delivered = 0;
    for (const connection of this.getConnections()) {
      connection.send(data);
      delivered++;
    }
    return delivered;
  }
}
