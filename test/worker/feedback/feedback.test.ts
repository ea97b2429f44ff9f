/** Feedback: anyone sends it, throttled per address; staff list it and archive it one way. */
import { beforeAll, describe, expect, it } from "vitest";
import { adminLogin, api, authed, json, post, withinOneMinute } from "../helpers";

let token: string;

const admin = (path: string, init: RequestInit = {}) => api(path, authed(token, init));

beforeAll(async () => {
  token = await adminLogin();
});

describe("feedback", () => {
  it("is sent without an account, listed for staff, archived one way", async () => {
    const bad = await post("/api/v1/feedback/", { email: "", message: "" });
    expect(bad.status).toBe(422);
    expect(await json(bad)).toMatchObject({ detail: "Please fill in all fields" });
    const sent = await post("/api/v1/feedback/", { email: "fan@ufl.edu", message: "Love the verified listings!" });
    expect(sent.status).toBe(201);
    const { id } = await json<{ id: string }>(sent);
    const list = await json<{ id: string; email: string; timestamp: string; archived: boolean }[]>(await admin("/api/v1/feedback/admin"));
    expect(list.find((f) => f.id === id)).toMatchObject({ email: "fan@ufl.edu", archived: false });
    expect((await admin(`/api/v1/feedback/admin/${id}/status?status=active`, { method: "PUT" })).status).toBe(422);
    expect((await admin(`/api/v1/feedback/admin/${id}/status?status=archived`, { method: "PUT" })).status).toBe(200);
    const active = await json<{ id: string }[]>(await admin("/api/v1/feedback/admin"));
    const archived = await json<{ id: string }[]>(await admin("/api/v1/feedback/admin?status=archived"));
    expect(active.map((f) => f.id)).not.toContain(id);
    expect(archived.map((f) => f.id)).toContain(id);
  });

  it("keeps the page it was sent from (a path, a consent link's token left out) and shows it to staff; without one it is still valid", async () => {
    const send = async (body: Record<string, unknown>) => {
      const res = await post("/api/v1/feedback/", { email: "page@ufl.edu", message: "Hi", ...body });
      return { status: res.status, body: await json<{ id: string; detail?: string }>(res) };
    };
    const fromListing = await send({ page: "/listing/abc123" });
    const fromConsent = await send({ page: "/landlord-consent/secret-token-123" });
    const without = await send({});
    expect([fromListing.status, fromConsent.status, without.status]).toEqual([201, 201, 201]);
    const list = await json<{ id: string; page: string | null }[]>(await admin("/api/v1/feedback/admin"));
    const pageOf = (id: string) => list.find((f) => f.id === id)!.page;
    expect(pageOf(fromListing.body.id)).toBe("/listing/abc123");
    expect(pageOf(fromConsent.body.id)).toBe("/landlord-consent/…");
    expect(pageOf(without.body.id)).toBeNull();
    // Not a path (a full address, a query), or too long: 422 with a readable detail, nothing stored.
    for (const page of ["https://evil.example/x", "/availability?token=abc", "/" + "a".repeat(300), 42]) {
      const refused = await send({ page });
      expect(refused.status, String(page)).toBe(422);
      expect(refused.body.detail).toBeTruthy();
    }
    const after = await json<{ id: string }[]>(await admin("/api/v1/feedback/admin"));
    expect(after).toHaveLength(list.length);
  });

  it("is throttled per address", async () => {
    const ip = { "cf-connecting-ip": "203.0.113.99" };
    let attempts = 0;
    const res = await withinOneMinute(async () => {
      let last: Response;
      do {
        last = await post("/api/v1/feedback/", { email: "spam@ufl.edu", message: `spam ${attempts++}` }, ip);
      } while (last.status === 201 && attempts < 130);
      return last;
    });
    expect(res.status).toBe(429);
    expect(attempts).toBeGreaterThan(60);
  });
});

