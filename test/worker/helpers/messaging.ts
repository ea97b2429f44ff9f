import { expect } from "vitest";
import type { Conversation } from "../../../worker/contract/messages";
import { api, authed, json, post, type Session } from "./api";

/** The conversation `a` starts (or reopens) with `b`: its id. */
export async function conversationOf(a: Session, b: Session): Promise<string> {
  const res = await post("/api/v1/messages/conversations", { participant_id: b.user.id }, { Authorization: `Bearer ${a.access_token}` });
  expect([200, 201]).toContain(res.status);
  return (await json<{ data: Conversation }>(res)).data.id;
}

/** A socket ticket for `s`, as the SPA fetches one before opening a room. */
export async function ticketOf(s: Session): Promise<string> {
  const res = await api("/api/v1/messages/socket-ticket", authed(s.access_token, { method: "POST" }));
  expect(res.status).toBe(200);
  return (await json<{ data: { ticket: string } }>(res)).data.ticket;
}
