/**
 * Pressing Message without writing leaves nothing in the other person's inbox: they see a conversation
 * (lists, `with/{userId}`) only once it holds a message; whoever started it sees it at once.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Conversation } from "../../../worker/contract/messages";
import { api, authed, json, post, signUp, type Session } from "../helpers";

const BASE = "/api/v1/messages";
const get = (s: Session, path: string) => api(`${BASE}${path}`, authed(s.access_token));
const send = (s: Session, path: string, body: unknown) => post(`${BASE}${path}`, body, { Authorization: `Bearer ${s.access_token}` });
const listed = async (s: Session) => (await json<{ data: Conversation[] }>(await get(s, "/conversations"))).data.map((c) => c.id);
const enriched = async (s: Session) => (await json<{ data: Conversation[] }>(await get(s, "/conversations/enriched"))).data.map((c) => c.id);

let n = 0;
const user = (name: string) => signUp(`${name}-${++n}@empty.test`);

let student: Session;
let owner: Session;

beforeAll(async () => {
  [student, owner] = await Promise.all([user("student"), user("owner")]);
});

describe("a conversation without messages", () => {
  it("shows to whoever started it, and to the other person only once it holds a message", async () => {
    const started = await send(student, "/conversations", { participant_id: owner.user.id });
    expect(started.status).toBe(201);
    const id = (await json<{ data: Conversation }>(started)).data.id;

    expect(await listed(student)).toEqual([id]);
    expect((await get(student, `/conversations/with/${owner.user.id}`)).status).toBe(200);
    // The owner: nothing in the inbox, no conversation "with" the student, no unread count.
    expect(await listed(owner)).toEqual([]);
    expect(await enriched(owner)).toEqual([]);
    const withStudent = await get(owner, `/conversations/with/${student.user.id}`);
    expect(withStudent.status).toBe(404);
    expect(await json(withStudent)).toMatchObject({ detail: expect.any(String) });

    // Pressing Message again (or the owner pressing it back) finds the same conversation.
    expect((await send(student, "/conversations", { participant_id: owner.user.id })).status).toBe(200);
    const back = await send(owner, "/conversations", { participant_id: student.user.id });
    expect(back.status).toBe(200);
    expect((await json<{ data: Conversation }>(back)).data.id).toBe(id);

    expect((await send(student, `/conversations/${id}/send`, { text: "Is it still available?" })).status).toBe(201);
    expect(await listed(owner)).toEqual([id]);
    expect(await enriched(owner)).toEqual([id]);
    expect((await json<{ data: Conversation }>(await get(owner, `/conversations/with/${student.user.id}`))).data).toMatchObject({ id, unread_count: 1 });
    expect((await json<{ data: { unread_count: number } }>(await get(owner, "/unread-count"))).data).toEqual({ unread_count: 1 });
  });

  it("a third person never sees it, with or without messages", async () => {
    const stranger = await user("stranger");
    const res = await send(owner, "/conversations", { participant_id: student.user.id });
    const id = (await json<{ data: Conversation }>(res)).data.id;
    expect(await listed(stranger)).toEqual([]);
    expect((await get(stranger, `/conversations/${id}`)).status).toBe(404);
    expect((await get(stranger, `/conversations/with/${owner.user.id}`)).status).toBe(404);
  });
});
