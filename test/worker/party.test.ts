import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { signAccessToken } from "../../worker/services/tokens";
import type { ServerEvent } from "../../party/protocol";
import { worker } from "./helpers";

async function connect(path: string): Promise<Response> {
  return worker.fetch(new Request(`http://localhost${path}`, { headers: { Upgrade: "websocket" } }));
}

function open(res: Response) {
  const socket = res.webSocket!;
  const received: ServerEvent[] = [];
  const waiters: (() => void)[] = [];
  socket.addEventListener("message", (event) => {
    received.push(JSON.parse(String(event.data)));
    waiters.splice(0).forEach((w) => w());
  });
  socket.accept();
  const next = async (): Promise<ServerEvent> => {
    if (!received.length) await new Promise<void>((resolve) => waiters.push(resolve));
    return received.shift()!;
  };
  return { socket, next };
}

async function seedConversation(userA: string, userB: string) {
  const id = `conv-${userA}-${userB}`;
  await env.DB.prepare("INSERT INTO conversations (id, user_a, user_b) VALUES (?, ?, ?)").bind(id, userA, userB).run();
  return id;
}

describe("inbox room", () => {
  it("accepts its own user's socket, which answers ping with pong", async () => {
    const token = await signAccessToken(env.JWT_SECRET, "alice");
    const res = await connect(`/parties/inbox/alice?token=${token}`);
    expect(res.status).toBe(101);
    const { socket, next } = open(res);
    socket.send(JSON.stringify({ type: "ping" }));
    expect(await next()).toEqual({ type: "pong" });
    socket.close();
  });

  it("refuses a missing, tampered or foreign token (401) and another user's inbox (404)", async () => {
    expect((await connect("/parties/inbox/alice")).status).toBe(401);
    const token = await signAccessToken(env.JWT_SECRET, "alice");
    expect((await connect(`/parties/inbox/alice?token=${token}x`)).status).toBe(401);
    const foreign = await signAccessToken("not-our-secret-0123456789abcdef01234", "alice");
    expect((await connect(`/parties/inbox/alice?token=${foreign}`)).status).toBe(401);
    expect((await connect(`/parties/inbox/bob?token=${token}`)).status).toBe(404);
  });

  it("delivers what the worker publishes over RPC to every socket of the room", async () => {
    const token = await signAccessToken(env.JWT_SECRET, "carol");
    const first = open(await connect(`/parties/inbox/carol?token=${token}`));
    const second = open(await connect(`/parties/inbox/carol?token=${token}`));
    const stub = env.Inbox.get(env.Inbox.idFromName("carol")) as unknown as {
      publish(event: ServerEvent): Promise<number>;
    };
    expect(await stub.publish({ type: "unread", unread_count: 3 })).toBe(2);
    expect(await first.next()).toEqual({ type: "unread", unread_count: 3 });
    expect(await second.next()).toEqual({ type: "unread", unread_count: 3 });
  });
});

describe("conversation room", () => {
  it("is open to the two participants only", async () => {
    const id = await seedConversation("dave", "erin");
    for (const user of ["dave", "erin"]) {
      const token = await signAccessToken(env.JWT_SECRET, user);
      const res = await connect(`/parties/conversation/${id}?token=${token}`);
      expect(res.status).toBe(101);
      res.webSocket!.accept();
      res.webSocket!.close();
    }
    const outsider = await signAccessToken(env.JWT_SECRET, "mallory");
    expect((await connect(`/parties/conversation/${id}?token=${outsider}`)).status).toBe(404);
    const token = await signAccessToken(env.JWT_SECRET, "dave");
    expect((await connect(`/parties/conversation/no-such-conversation?token=${token}`)).status).toBe(404);
  });

  it("ignores a forged user header: identity comes only from the verified token", async () => {
    const id = await seedConversation("frank", "gina");
    const res = await worker.fetch(
      new Request(`http://localhost/parties/conversation/${id}`, {
        headers: { Upgrade: "websocket", "x-campusnest-user-id": "frank" },
      }),
    );
    expect(res.status).toBe(401);
  });
});
