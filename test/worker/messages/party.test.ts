import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { signAccessToken, signSocketTicket } from "../../../worker/services/tokens";
import { getServerByName } from "partyserver";
import { CLOSE_CODES, type ServerEvent } from "../../../party/protocol";
import { MAX_LIVE_SOCKETS } from "../../../worker/services/room-access";
import { connect, open, worker } from "../helpers";

/** A socket ticket as POST messages/socket-ticket issues it. */
const ticket = (userId: string, ttlSeconds = 60) => signSocketTicket(env.JWT_SECRET, userId, ttlSeconds);

// The rooms open only to accounts that exist.
beforeAll(async () => {
  const names = ["alice", "bob", "carol", "dave", "erin", "frank", "gina", "hank", "iris", "kate", "liam", "mallory", "zed"];
  await env.DB.batch(names.map((id) => env.DB.prepare("INSERT INTO users (id, email, first_name, last_name) VALUES (?, ?, ?, 'Test')").bind(id, `${id}@party.test`, id)));
});

async function seedConversation(userA: string, userB: string) {
  const id = `conv-${userA}-${userB}`;
  await env.DB.prepare("INSERT INTO conversations (id, user_a, user_b) VALUES (?, ?, ?)").bind(id, userA, userB).run();
  return id;
}

describe("inbox room", () => {
  it("accepts its own user's socket, which answers ping with pong", async () => {
    const token = await ticket("alice");
    const res = await connect(`/parties/inbox/alice?token=${token}`);
    expect(res.status).toBe(101);
    const { socket, next } = open(res);
    socket.send(JSON.stringify({ type: "ping" }));
    expect(await next()).toEqual({ type: "pong" });
    socket.close();
  });

  it("refuses a missing, tampered, foreign or expired ticket (401) and another user's inbox (404)", async () => {
    expect((await connect("/parties/inbox/alice")).status).toBe(401);
    const token = await ticket("alice");
    expect((await connect(`/parties/inbox/alice?token=${token}x`)).status).toBe(401);
    const foreign = await signSocketTicket("not-our-secret-0123456789abcdef01234", "alice", 60);
    expect((await connect(`/parties/inbox/alice?token=${foreign}`)).status).toBe(401);
    expect((await connect(`/parties/inbox/alice?token=${await ticket("alice", -5)}`)).status).toBe(401);
    expect((await connect(`/parties/inbox/bob?token=${token}`)).status).toBe(404);
  });

  it("refuses the ticket of an account that no longer exists (401)", async () => {
    expect((await connect(`/parties/inbox/ghost?token=${await ticket("ghost")}`)).status).toBe(401);
  });

  it("refuses an access token: only a socket ticket opens a room", async () => {
    const access = await signAccessToken(env.JWT_SECRET, "alice");
    expect((await connect(`/parties/inbox/alice?token=${access}`)).status).toBe(401);
    const id = await seedConversation("alice", "zed");
    expect((await connect(`/parties/conversation/${id}?token=${access}`)).status).toBe(401);
    open(await connect(`/parties/conversation/${id}?token=${await ticket("alice")}`)).socket.close();
  });

  it("delivers what the worker publishes over RPC to every socket of the room", async () => {
    const first = open(await connect(`/parties/inbox/carol?token=${await ticket("carol")}`));
    const second = open(await connect(`/parties/inbox/carol?token=${await ticket("carol")}`));
    const stub = env.Inbox.get(env.Inbox.idFromName("carol")) as unknown as {
      publish(event: ServerEvent): Promise<number>;
    };
    expect(await stub.publish({ type: "unread", unread_count: 3 })).toBe(2);
    expect(await first.next()).toEqual({ type: "unread", unread_count: 3 });
    expect(await second.next()).toEqual({ type: "unread", unread_count: 3 });
  });
});

describe("how many sockets a user opens", () => {
  it("a ticket opens one socket: the same URL again is refused (401), also when the first attempt was refused", async () => {
    const token = await ticket("liam");
    const first = open(await connect(`/parties/inbox/liam?token=${token}`));
    const again = await connect(`/parties/inbox/liam?token=${token}`);
    expect(again.status).toBe(401);
    expect(await again.json()).toEqual({ detail: "This socket ticket was used already" });
    expect(await first.quiet()).toBe(true);
    // A ticket spent on a refused room is spent too.
    const other = await ticket("liam");
    expect((await connect(`/parties/inbox/alice?token=${other}`)).status).toBe(404);
    expect((await connect(`/parties/inbox/liam?token=${other}`)).status).toBe(401);
    first.socket.close();
  });

  it(`keeps at most ${MAX_LIVE_SOCKETS} open per user across rooms: the next closes the oldest (4429); a closed one frees its place`, async () => {
    const id = await seedConversation("kate", "zed");
    const sockets = [];
    for (let i = 0; i < MAX_LIVE_SOCKETS; i++) {
      sockets.push(open(await connect(i % 2 ? `/parties/conversation/${id}?token=${await ticket("kate")}` : `/parties/inbox/kate?token=${await ticket("kate")}`)));
    }
    const others = open(await connect(`/parties/inbox/zed?token=${await ticket("zed")}`));
    const eleventh = open(await connect(`/parties/conversation/${id}?token=${await ticket("kate")}`));
    expect(await sockets[0]!.closed).toMatchObject({ code: CLOSE_CODES.tooManySockets });
    for (const s of [...sockets.slice(1), eleventh]) expect(await s.quiet()).toBe(true);
    expect(await others.quiet()).toBe(true);
    const live = () => env.DB.prepare("SELECT count(*) AS n FROM live_sockets WHERE user_id = 'kate'").first<{ n: number }>().then((r) => r!.n);
    expect(await live()).toBe(MAX_LIVE_SOCKETS);

    // Closing one (the browser's tab closed) frees a place: the next socket closes nobody, and the closed one is forgotten.
    sockets[5]!.socket.close(1000, "tab closed");
    await sockets[5]!.closed;
    const twelfth = open(await connect(`/parties/inbox/kate?token=${await ticket("kate")}`));
    for (const s of [...sockets.slice(1, 5), ...sockets.slice(6), eleventh, twelfth]) expect(await s.quiet()).toBe(true);
    expect(await live()).toBe(MAX_LIVE_SOCKETS);
    for (const s of [...sockets.slice(1, 5), ...sockets.slice(6), eleventh, twelfth, others]) s.socket.close();
  });
});

describe("conversation room", () => {
  it("is open to the two participants only", async () => {
    const id = await seedConversation("dave", "erin");
    for (const user of ["dave", "erin"]) {
      const token = await ticket(user);
      const res = await connect(`/parties/conversation/${id}?token=${token}`);
      expect(res.status).toBe(101);
      res.webSocket!.accept();
      res.webSocket!.close();
    }
    const outsider = await ticket("mallory");
    expect((await connect(`/parties/conversation/${id}?token=${outsider}`)).status).toBe(404);
    const token = await ticket("dave");
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

describe("a path that cannot name a room", () => {
  /** A plain refusal: JSON {detail}, nothing of the code's insides. */
  async function expectPlainRefusal(res: Response, status: number, detail: string) {
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ detail });
    expect(text).not.toMatch(/\bat |Error|\.ts:|\.js:/);
  }

  it("answers 404 {detail} for an over-long or malformed room id, an unknown kind or extra segments, ticket or not", async () => {
    const token = await ticket("alice");
    const names = ["a".repeat(22), "a".repeat(5000), "a".repeat(60_000), "%00", "al%20ice", "%F0%9F%98%80", "..", "alice%2Fbob", "%ZZ"];
    for (const query of [`?token=${token}`, ""]) {
      for (const kind of ["inbox", "conversation"]) {
        for (const name of names) await expectPlainRefusal(await connect(`/parties/${kind}/${name}${query}`), 404, "Not found");
      }
      for (const path of ["/parties/nope/alice", "/parties/main/alice", "/parties/inbox", "/parties/inbox/alice/extra", "/parties/"]) {
        await expectPlainRefusal(await connect(`${path}${query}`), 404, "Not found");
      }
    }
    // Its own inbox still opens.
    const res = await connect(`/parties/inbox/alice?token=${token}`);
    expect(res.status).toBe(101);
    res.webSocket!.accept();
    res.webSocket!.close();
  });

  it("answers 503 {detail} (no stack trace) when something fails on the way to the room", async () => {
    const spy = vi.spyOn(env.Inbox, "idFromName").mockImplementation(() => {
      throw new Error("boom at party/auth.ts:1");
    });
    try {
      await expectPlainRefusal(await connect(`/parties/inbox/alice?token=${await ticket("alice")}`), 503, "Real-time updates are unavailable right now. Please try again later.");
    } finally {
      spy.mockRestore();
    }
  });
});

describe("room RPCs", () => {
  it("counts open sockets and closes every socket, or one user's only", async () => {
    const id = await seedConversation("hank", "iris");
    const room = await getServerByName(env.Conversation, id);
    expect(await room.connectionCount()).toBe(0);
    const hank = open(await connect(`/parties/conversation/${id}?token=${await ticket("hank")}`));
    const iris = open(await connect(`/parties/conversation/${id}?token=${await ticket("iris")}`));
    expect(await room.connectionCount()).toBe(2);
    expect(await room.closeAll(4410, "Account deleted", "hank")).toBe(1);
    expect(await hank.closed).toMatchObject({ code: 4410 });
    expect(await iris.quiet()).toBe(true);
    expect(await room.closeAll(4404, "Conversation deleted")).toBe(1);
    expect(await iris.closed).toMatchObject({ code: 4404 });
    expect(await room.connectionCount()).toBe(0);
  });
});
