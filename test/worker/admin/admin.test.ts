import { env } from "cloudflare:test";
import { TOKEN_IN_URL } from "../../../worker/middleware/require-admin";
import { beforeAll, describe, expect, it } from "vitest";
import { adminLogin, api, authed, dataUrl, insertListing as insertStudentListing, JPEG_1x1, json, post, type Session, signUp } from "../helpers";

let token: string;
let student: Session;

const admin = (path: string, init: RequestInit = {}) => api(path, authed(token, init));

const insertListing = (id: string, status = "pending", extra: Record<string, string | number | null> = {}) =>
  insertStudentListing(student.user.id, id, { verification_status: status, monthly_rent: 700, ...extra });

beforeAll(async () => {
  token = await adminLogin();
  student = await signUp("student-admin@ufl.edu");
});

describe("staff sessions", () => {
  it("takes the token as a bearer header, and logout ends it on the server", async () => {
    const mine = await adminLogin();
    expect((await api("/api/v1/admin/tables", authed(mine))).status).toBe(200);
    expect((await api("/api/v1/admin/logout", authed(mine, { method: "POST" }))).status).toBe(204);
    const res = await api("/api/v1/admin/tables", authed(mine));
    expect(res.status).toBe(401);
    expect(await json(res)).toEqual({ detail: "Session expired. Please log in again." });
    // Other staff sessions go on.
    expect((await admin("/api/v1/admin/tables")).status).toBe(200);
    const audit = await json<{ audit: { action: string; actor: string }[] }>(await admin("/api/v1/admin/audit"));
    // The sign-in's row has the session's actor, as its later actions do: the log ties them together.
    const logout = audit.audit.find((a) => a.action === "logout")!;
    expect(logout.actor).toMatch(/^admin:[\w-]{12}$/);
    expect(audit.audit.filter((a) => a.action === "login" && a.actor === logout.actor)).toHaveLength(1);
  });
});

describe("admin access", () => {
  const routes: [string, string, unknown?][] = [
    ["GET", "/api/v1/admin/tables"],
    ["GET", "/api/v1/admin/users"],
    ["GET", "/api/v1/admin/listings"],
    ["GET", "/api/v1/admin/listings/pending"],
    ["GET", "/api/v1/admin/listings/promoted"],
    ["GET", "/api/v1/admin/stats"],
    ["GET", "/api/v1/admin/audit"],
    ["PATCH", "/api/v1/admin/listings/x/verify", { status: "approved" }],
    ["PATCH", "/api/v1/admin/listings/x", { title: "x" }],
    ["POST", "/api/v1/admin/listings/verify-all"],
    ["POST", "/api/v1/admin/listings/x/promote"],
    ["POST", "/api/v1/admin/listings/x/unpromote"],
    ["POST", "/api/v1/admin/cleanup-expired-promotions"],
    ["PATCH", "/api/v1/admin/users/x/verify", { verification_status: "verified" }],
    ["DELETE", "/api/v1/admin/delete-item", { tableName: "feedback", itemId: "x" }],
    ["GET", "/api/v1/admin/conversations"],
    ["GET", "/api/v1/admin/conversations/x/messages"],
    ["GET", "/api/v1/verification/admin/all?status=pending"],
    ["GET", "/api/v1/verification/admin/x/document"],
    ["PATCH", "/api/v1/verification/admin/x/review", { status: "approved" }],
    ["GET", "/api/v1/feedback/admin"],
    ["PUT", "/api/v1/feedback/admin/x/status?status=archived"],
  ];

  it("refuses every admin route without a token, with a bad or expired token, and with a user's token", async () => {
    const bad = ["", "?token=garbage", `?token=${student.access_token}`];
    for (const [method, path, body] of routes) {
      for (const suffix of bad) {
        const url = suffix ? `${path}${path.includes("?") ? "&" : "?"}${suffix.slice(1)}` : path;
        const res = await api(url, { method, body: body ? JSON.stringify(body) : undefined });
        expect(res.status, `${method} ${url}`).toBe(401);
      }
      const userBearer = await api(path, authed(student.access_token, { method, body: body ? JSON.stringify(body) : undefined }));
      expect(userBearer.status, `${method} ${path} with a user's bearer`).toBe(401);
    }
  });

  it("takes the token only as a bearer header: ?token= is 401, even a good one beside a good header; a wrong password is 401 with success false", async () => {
    for (const res of [await api(`/api/v1/admin/tables?token=${token}`), await api(`/api/v1/admin/tables?token=${token}`, authed(token))]) {
      expect(res.status).toBe(401);
      expect(await json(res)).toEqual({ detail: TOKEN_IN_URL });
    }
    // The identity document too: the panel fetches it with the header and shows a blob.
    expect((await api(`/api/v1/verification/admin/x/document?token=${token}`)).status).toBe(401);
    expect(await json(await admin("/api/v1/admin/tables"))).toEqual({
      tables: ["users", "listings", "feedback", "verification_requests", "conversations", "messages"],
    });
    const wrong = await post("/api/v1/admin/login", { password: "nope" });
    expect(wrong.status).toBe(401);
    expect(await json(wrong)).toMatchObject({ success: false });
  });
});

describe("listing review", () => {
  it("approves once (a second approval changes nothing), refuses a rejection without reason, and emails the owner", async () => {
    await insertListing("rev1");
    const noReason = await admin("/api/v1/admin/listings/rev1/verify", { method: "PATCH", body: JSON.stringify({ status: "rejected" }) });
    expect(noReason.status).toBe(422);
    expect(await json(noReason)).toMatchObject({ detail: "Please provide a reason for rejection" });

    const first = await json<{ changed: boolean; listing: { verification_status: string; price: number } }>(
      await admin("/api/v1/admin/listings/rev1/verify", { method: "PATCH", body: JSON.stringify({ status: "approved" }) }),
    );
    expect(first).toMatchObject({ changed: true, listing: { verification_status: "approved", price: 700 } });
    const second = await json<{ changed: boolean }>(await admin("/api/v1/admin/listings/rev1/verify", { method: "PATCH", body: JSON.stringify({ status: "approved" }) }));
    expect(second.changed).toBe(false);
    const mails = await json<{ data: { subject: string }[] }>(await api(`/api/v1/dev/emails?to=${student.user.email}`));
    expect(mails.data.filter((m) => m.subject.includes("is live"))).toHaveLength(1);
    expect((await api("/api/v1/subleases/rev1")).status).toBe(200);

    const rejected = await admin("/api/v1/admin/listings/rev1/verify", { method: "PATCH", body: JSON.stringify({ status: "rejected", rejection_reason: "Photos are of another place" }) });
    expect(await json(rejected)).toMatchObject({ listing: { verification_status: "rejected", rejection_reason: "Photos are of another place" } });
    expect((await api("/api/v1/subleases/rev1")).status).toBe(404);
  });

  it("starts a promotion bought while pending once approved; promotes approved listings only; cleans up", async () => {
    await insertListing("rev2", "pending", { promotion_pending_days: 7 });
    await admin("/api/v1/admin/listings/rev2/verify", { method: "PATCH", body: JSON.stringify({ status: "approved" }) });
    const promoted = await json<{ listings: { id: string; promoted: boolean }[] }>(await admin("/api/v1/admin/listings/promoted"));
    expect(promoted.listings.find((l) => l.id === "rev2")?.promoted).toBe(true);

    await insertListing("rev3", "pending");
    const refused = await admin("/api/v1/admin/listings/rev3/promote", { method: "POST" });
    expect(refused.status).toBe(400);
    expect(await json(refused)).toEqual({ detail: "Only approved listings can be promoted" });

    await insertListing("rev4", "approved", { promotion_start: "2026-01-01T00:00:00.000Z", promotion_end: "2026-01-08T00:00:00.000Z", promotion_source: "admin" });
    expect((await admin("/api/v1/admin/listings/rev4/promote", { method: "POST" })).status).toBe(200);
    await env.DB.prepare("UPDATE listings SET promotion_end = '2026-01-08T00:00:00.000Z' WHERE id = 'rev4'").run();
    expect(await json(await admin("/api/v1/admin/cleanup-expired-promotions", { method: "POST" }))).toEqual({ expired_count: 1 });
    expect((await admin("/api/v1/admin/listings/rev2/unpromote", { method: "POST" })).status).toBe(200);
  });

  it("verify-all approves every pending listing and reports the counts", async () => {
    await insertListing("va1");
    await insertListing("va2");
    const res = await json<{ verified_count: number; total_listings: number }>(await admin("/api/v1/admin/listings/verify-all", { method: "POST" }));
    expect(res.verified_count).toBe(res.total_listings);
    expect(res.verified_count).toBeGreaterThanOrEqual(2);
    expect((await json<{ listings: unknown[] }>(await admin("/api/v1/admin/listings/pending"))).listings).toEqual([]);
  });

  it("names each listing's lister (the details modal links the name to their user card)", async () => {
    await insertListing("named1");
    for (const path of ["/api/v1/admin/listings", "/api/v1/admin/listings/pending"]) {
      const { listings } = await json<{ listings: { id: string; user_id: string; user_first_name: string; user_last_name: string }[] }>(await admin(path));
      expect(listings.find((l) => l.id === "named1")).toMatchObject({ user_id: student.user.id, user_first_name: "Test", user_last_name: "User" });
    }
  });
});

describe("listing edits by staff", () => {
  it("corrects title, price and visibility, audited; bad input is 422 and a missing listing 404", async () => {
    await insertListing("ed1", "approved");
    const res = await admin("/api/v1/admin/listings/ed1", { method: "PATCH", body: JSON.stringify({ title: "Fixed typo", monthly_rent: 650, moderation_status: "hidden" }) });
    expect(await json(res)).toMatchObject({ listing: { title: "Fixed typo", monthly_rent: 650, moderation_status: "hidden", status: "available", verification_status: "approved" } });
    expect((await api("/api/v1/subleases/ed1")).status).toBe(404);
    expect((await admin("/api/v1/admin/listings/ed1", { method: "PATCH", body: JSON.stringify({ title: "x".repeat(201) }) })).status).toBe(422);
    expect((await admin("/api/v1/admin/listings/none", { method: "PATCH", body: JSON.stringify({ title: "x" }) })).status).toBe(404);
    const audit = await json<{ audit: { action: string; item_id: string }[] }>(await admin("/api/v1/admin/audit"));
    expect(audit.audit.some((a) => a.action === "listing_edit" && a.item_id === "ed1")).toBe(true);
  });
});

describe("identity review", () => {
  it("approves (user becomes verified), rejects with a required reason, and streams the document to admins only", async () => {
    const s = await signUp("idreview@ufl.edu");
    const up = await json<{ id_document_url: string }>(
      await api("/api/v1/verification/upload-document", authed(s.access_token, { method: "POST", body: JSON.stringify({ filename: "id.jpg", image_data: dataUrl(JPEG_1x1) }) })),
    );
    const submitted = await json<{ data: { id: string } }>(
      await api("/api/v1/verification/submit-url", authed(s.access_token, { method: "POST", body: JSON.stringify({ document_type: "passport", id_document_url: up.id_document_url }) })),
    );
    const id = submitted.data.id;
    const pending = await json<{ data: { id: string; user_email: string }[] }>(await admin("/api/v1/verification/admin/all?status=pending"));
    expect(pending.data.map((r) => r.id)).toContain(id);

    const doc = await admin(`/api/v1/verification/admin/${id}/document`);
    expect(doc.status).toBe(200);
    expect(doc.headers.get("content-type")).toBe("image/jpeg");
    expect(doc.headers.get("cache-control")).toContain("no-store");
    expect((await api(`/api/v1/verification/admin/${id}/document`, authed(s.access_token))).status).toBe(401);

    const noReason = await admin(`/api/v1/verification/admin/${id}/review`, { method: "PATCH", body: JSON.stringify({ status: "rejected", rejection_reason: "  " }) });
    expect(noReason.status).toBe(422);
    await admin(`/api/v1/verification/admin/${id}/review`, { method: "PATCH", body: JSON.stringify({ status: "approved" }) });
    const again = await json<{ changed: boolean }>(await admin(`/api/v1/verification/admin/${id}/review`, { method: "PATCH", body: JSON.stringify({ status: "approved" }) }));
    expect(again.changed).toBe(false);
    const status = await json<{ data: { status: string } }>(await api("/api/v1/verification/status", authed(s.access_token)));
    expect(status.data.status).toBe("verified");
    const mails = await json<{ data: { subject: string }[] }>(await api("/api/v1/dev/emails?to=idreview@ufl.edu"));
    expect(mails.data.filter((m) => m.subject === "You're verified on CampusNest")).toHaveLength(1);
  });

  it("applies a decision to the user's latest request only: an older one is 409", async () => {
    const s = await signUp("resubmit@ufl.edu");
    const submit = async () => {
      const up = await json<{ id_document_url: string }>(
        await api("/api/v1/verification/upload-document", authed(s.access_token, { method: "POST", body: JSON.stringify({ filename: "id.jpg", image_data: dataUrl(JPEG_1x1) }) })),
      );
      const res = await api("/api/v1/verification/submit-url", authed(s.access_token, { method: "POST", body: JSON.stringify({ document_type: "passport", id_document_url: up.id_document_url }) }));
      return (await json<{ data: { id: string } }>(res)).data.id;
    };
    const review = (id: string, body: unknown) => admin(`/api/v1/verification/admin/${id}/review`, { method: "PATCH", body: JSON.stringify(body) });
    const first = await submit();
    expect((await review(first, { status: "rejected", rejection_reason: "Blurry" })).status).toBe(200);
    const second = await submit();
    // A second reviewer, working from a stale list, approves the old (rejected) document.
    const stale = await review(first, { status: "approved" });
    expect(stale.status).toBe(409);
    expect(await json(stale)).toEqual({ detail: "This user has sent a newer verification request. Review that one instead." });
    expect((await json<{ data: { status: string } }>(await api("/api/v1/verification/status", authed(s.access_token)))).data.status).toBe("pending");
    expect((await review(second, { status: "approved" })).status).toBe(200);
    // A reviewed request cannot be flipped to the other decision.
    expect((await review(second, { status: "rejected", rejection_reason: "Changed my mind" })).status).toBe(409);
    expect((await json<{ data: { status: string } }>(await api("/api/v1/verification/status", authed(s.access_token)))).data.status).toBe("verified");
  });

  it("two staff deciding one request at once: one decision applies, the other hears 409", async () => {
    const s = await signUp("contested@ufl.edu");
    const up = await json<{ id_document_url: string }>(
      await api("/api/v1/verification/upload-document", authed(s.access_token, { method: "POST", body: JSON.stringify({ filename: "id.jpg", image_data: dataUrl(JPEG_1x1) }) })),
    );
    const submitted = await api("/api/v1/verification/submit-url", authed(s.access_token, { method: "POST", body: JSON.stringify({ document_type: "passport", id_document_url: up.id_document_url }) }));
    const id = (await json<{ data: { id: string } }>(submitted)).data.id;
    const review = (body: unknown) => admin(`/api/v1/verification/admin/${id}/review`, { method: "PATCH", body: JSON.stringify(body) });
    const [approve, reject] = await Promise.all([review({ status: "approved" }), review({ status: "rejected", rejection_reason: "Blurry" })]);
    expect([approve.status, reject.status].sort()).toEqual([200, 409]);
    const won = approve.status === 200 ? "approved" : "rejected";
    const request = await env.DB.prepare("SELECT status FROM verification_requests WHERE id = ?").bind(id).first<{ status: string }>();
    const user = await env.DB.prepare("SELECT id_verification_status AS status FROM users WHERE id = ?").bind(s.user.id).first<{ status: string }>();
    expect(request!.status).toBe(won);
    expect(user!.status).toBe(won === "approved" ? "verified" : "rejected");
  });

  it("respects the user's toggle: no review email when it is off", async () => {
    const s = await signUp("quiet@ufl.edu");
    await api("/api/v1/users/notifications", authed(s.access_token, { method: "PATCH", body: JSON.stringify({ email_on_listing_review: false }) }));
    await env.DB.prepare("INSERT INTO listings (id, user_id, university_id, title, description, unit_type, address, monthly_rent, lease_term) VALUES ('quiet1', ?, 1, 'Quiet', 'd', 'studio', 'a', 700, 'fall')").bind(s.user.id).run();
    await admin("/api/v1/admin/listings/quiet1/verify", { method: "PATCH", body: JSON.stringify({ status: "approved" }) });
    const mails = await json<{ data: { subject: string }[] }>(await api("/api/v1/dev/emails?to=quiet@ufl.edu"));
    expect(mails.data.some((m) => m.subject.includes("is live"))).toBe(false);
  });
});

describe("users, stats, delete-item, audit", () => {
  it("sets a user's verification status, lists users and stats with 10 days of growth", async () => {
    const res = await admin(`/api/v1/admin/users/${student.user.id}/verify`, { method: "PATCH", body: JSON.stringify({ verification_status: "verified" }) });
    expect(await json(res)).toMatchObject({ user: { id_verification_status: "verified" } });
    expect((await admin(`/api/v1/admin/users/${student.user.id}/verify`, { method: "PATCH", body: JSON.stringify({ verification_status: "approved" }) })).status).toBe(422);
    const users = await json<{ users: { email: string }[] }>(await admin("/api/v1/admin/users"));
    expect(users.users.map((u) => u.email)).toContain("student-admin@ufl.edu");
    expect(JSON.stringify(users)).not.toContain("scrypt$");
    const { stats } = await json<{ stats: { users: number; user_growth: { date: string; users: number }[] } }>(await admin("/api/v1/admin/stats"));
    expect(stats.user_growth).toHaveLength(10);
    expect(stats.user_growth.at(-1)!.date).toBe(new Date().toISOString().slice(0, 10));
    expect(stats.user_growth.at(-1)!.users).toBeGreaterThanOrEqual(3);
    expect(stats.users).toBeGreaterThanOrEqual(3);
  });

  it("stats count the queues waiting for staff, each as its tab lists it", async () => {
    type Queues = { pending_ids: number; pending_listings: number; open_reports: number; safety_flags: number };
    const queues = async () => (await json<{ stats: { queues: Queues } }>(await admin("/api/v1/admin/stats"))).stats.queues;
    const before = await queues();
    const uid = student.user.id;
    // One of each waiting, and one of each already dealt with (not counted).
    await insertListing("queue-pending", "pending");
    await insertListing("queue-approved", "approved");
    await env.DB.batch([
      env.DB.prepare("INSERT INTO verification_requests (id, user_id, document_type, status) VALUES ('queue-vr1', ?1, 'passport', 'pending'), ('queue-vr2', ?1, 'passport', 'rejected')").bind(uid),
      env.DB.prepare(
        "INSERT INTO reports (id, reporter_id, kind, reported_user_id, reason, status) VALUES ('queue-r1', 'someone', 'user', ?1, 'scam', 'open'), ('queue-r2', 'someone', 'user', ?1, 'scam', 'resolved')",
      ).bind(uid),
      env.DB.prepare(
        `INSERT INTO conversations (id, user_a, user_b, safety_flagged_at, safety_reviewed_at) VALUES
           ('queue-c1', 'qa', 'qb', '2026-01-02T00:00:00.000Z', NULL),
           ('queue-c2', 'qa', 'qc', '2026-01-02T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
           ('queue-c3', 'qa', 'qd', '2026-01-02T00:00:00.000Z', '2026-01-03T00:00:00.000Z'),
           ('queue-c4', 'qa', 'qe', NULL, NULL)`,
      ),
    ]);
    const after = await queues();
    // Flagged and never reviewed, and flagged again after a review, wait; reviewed since the flag does not.
    expect(after).toEqual({
      pending_ids: before.pending_ids + 1,
      pending_listings: before.pending_listings + 1,
      open_reports: before.open_reports + 1,
      safety_flags: before.safety_flags + 2,
    });
  });

  it("delete-item of a message takes its text out of the conversation's preview too", async () => {
    await env.DB.prepare("INSERT INTO conversations (id, user_a, user_b, last_message_preview, last_message_at) VALUES ('mod-c', 'mod-a', 'mod-b', 'Send me the deposit by wire', '2026-01-02T00:00:00.000Z')").run();
    await env.DB.prepare(
      "INSERT INTO messages (id, conversation_id, sender_id, text, created_at) VALUES ('mod-1', 'mod-c', 'mod-a', 'Hello there', '2026-01-01T00:00:00.000Z'), ('mod-2', 'mod-c', 'mod-b', 'Send me the deposit by wire', '2026-01-02T00:00:00.000Z')",
    ).run();
    const res = await admin("/api/v1/admin/delete-item", { method: "DELETE", body: JSON.stringify({ tableName: "messages", itemId: "mod-2" }) });
    expect(res.status).toBe(200);
    const row = await env.DB.prepare("SELECT last_message_preview AS preview, last_message_at AS at FROM conversations WHERE id = 'mod-c'").first();
    expect(row).toEqual({ preview: "Hello there", at: "2026-01-01T00:00:00.000Z" });
    await admin("/api/v1/admin/delete-item", { method: "DELETE", body: JSON.stringify({ tableName: "messages", itemId: "mod-1" }) });
    expect(await env.DB.prepare("SELECT last_message_preview AS preview FROM conversations WHERE id = 'mod-c'").first()).toEqual({ preview: null });
    expect((await admin("/api/v1/admin/delete-item", { method: "DELETE", body: JSON.stringify({ tableName: "messages", itemId: "mod-1" }) })).status).toBe(404);
  });

  it("delete-item: unknown table is 400 and deletes nothing; a listing goes with its photos", async () => {
    await insertListing("del1", "approved");
    await env.IMAGES.put("listings/del-photo.jpg", JPEG_1x1);
    await env.DB.prepare("INSERT INTO listing_photos (id, listing_id, key, position) VALUES ('dp1', 'del1', 'listings/del-photo.jpg', 0)").run();
    const unknown = await admin("/api/v1/admin/delete-item", { method: "DELETE", body: JSON.stringify({ tableName: "sqlite_master", itemId: "del1" }) });
    expect(unknown.status).toBe(400);
    expect((await api("/api/v1/subleases/del1")).status).toBe(200);
    const res = await admin("/api/v1/admin/delete-item", { method: "DELETE", body: JSON.stringify({ tableName: "listings", itemId: "del1" }) });
    expect(await json(res)).toMatchObject({ success: true, message: "Item deleted successfully" });
    expect(await env.IMAGES.head("listings/del-photo.jpg")).toBeNull();
    expect(await env.DB.prepare("SELECT COUNT(*) n FROM listing_photos WHERE listing_id = 'del1'").first<{ n: number }>()).toEqual({ n: 0 });
    expect((await admin("/api/v1/admin/delete-item", { method: "DELETE", body: JSON.stringify({ tableName: "listings", itemId: "del1" }) })).status).toBe(404);
    const audit = await json<{ audit: { action: string; item_id: string }[] }>(await admin("/api/v1/admin/audit"));
    expect(audit.audit.find((a) => a.action === "delete_item")).toMatchObject({ item_id: "del1" });
  });
});

describe("conversations, read-only for moderation", () => {
  it("lists conversations and their messages", async () => {
    await env.DB.batch([
      env.DB.prepare("INSERT INTO conversations (id, user_a, user_b, last_message_preview) VALUES ('mc1', 'ua', 'ub', 'hello')"),
      env.DB.prepare("INSERT INTO messages (id, conversation_id, sender_id, text) VALUES ('mm1', 'mc1', 'ua', 'hello')"),
    ]);
    const list = await json<{ conversations: { id: string; participants: string[] }[] }>(await admin("/api/v1/admin/conversations"));
    expect(list.conversations.find((c) => c.id === "mc1")).toMatchObject({ participants: ["ua", "ub"] });
    const msgs = await json<{ messages: { id: string; text: string; is_read: boolean }[] }>(await admin("/api/v1/admin/conversations/mc1/messages"));
    expect(msgs.messages).toEqual([expect.objectContaining({ id: "mm1", text: "hello", is_read: false })]);
  });

  it("pages conversations (most recently active first) and messages (newest first)", async () => {
    await env.DB.batch([
      ...[1, 2, 3].map((i) =>
        env.DB.prepare("INSERT INTO conversations (id, user_a, user_b, last_message_at) VALUES (?, ?, ?, ?)").bind(`pc${i}`, `pa${i}`, `pb${i}`, `2030-01-0${i}T00:00:00.000Z`),
      ),
      ...[1, 2, 3, 4, 5].map((i) =>
        env.DB.prepare("INSERT INTO messages (id, conversation_id, sender_id, text, created_at) VALUES (?, 'pc1', 'pa1', ?, ?)").bind(`pm${i}`, `m${i}`, `2030-01-01T00:00:0${i}.000Z`),
      ),
    ]);
    type Page<K extends string> = Record<K, { id: string }[]> & { pagination: { next_token: string | null; has_more: boolean } };
    const first = await json<Page<"conversations">>(await admin("/api/v1/admin/conversations?limit=2"));
    expect(first.conversations.map((c) => c.id)).toEqual(["pc3", "pc2"]);
    expect(first.pagination.has_more).toBe(true);
    const second = await json<Page<"conversations">>(await admin(`/api/v1/admin/conversations?limit=2&last_evaluated_key=${first.pagination.next_token}`));
    expect(second.conversations[0]!.id).toBe("pc1");

    const ids: string[] = [];
    let token: string | null = null;
    do {
      const page: Page<"messages"> = await json<Page<"messages">>(await admin(`/api/v1/admin/conversations/pc1/messages?limit=2${token ? `&last_evaluated_key=${token}` : ""}`));
      ids.push(...page.messages.map((m) => m.id));
      token = page.pagination.next_token;
    } while (token);
    expect(ids).toEqual(["pm5", "pm4", "pm3", "pm2", "pm1"]);
    expect((await admin("/api/v1/admin/conversations?last_evaluated_key=bad")).status).toBe(400);
    // Read-only: nothing but GET is routed there.
    expect((await admin("/api/v1/admin/conversations/pc1/messages", { method: "POST" })).status).toBe(404);
  });
});

// A review applies to the version staff saw (its revision), or is refused with 409 (docs/decisions/015).
describe("reviews apply to the version staff saw", () => {
  type Listed = { id: string; revision: number; verification_status: string; price_check: { comparables: number; median: number | null; far_below: boolean; approved_rent: number | null } };
  const listed = async (id: string, path = "/api/v1/admin/listings") => (await json<{ listings: Listed[] }>(await admin(path))).listings.find((l) => l.id === id)!;
  const verify = (id: string, body: Record<string, unknown>) => admin(`/api/v1/admin/listings/${id}/verify`, { method: "PATCH", body: JSON.stringify(body) });
  const decisions = async (id: string) =>
    (await json<{ audit: { action: string; item_id: string }[] }>(await admin("/api/v1/admin/audit"))).audit.filter((a) => a.item_id === id && /^listing_(approved|rejected)$/.test(a.action));
  const stateOf = async (id: string) => (await env.DB.prepare("SELECT verification_status, revision FROM listings WHERE id = ?").bind(id).first<{ verification_status: string; revision: number }>())!;

  it("an owner's edit after staff opened it: 409 with a readable detail, nothing changes; the new version is approved", async () => {
    await insertListing("rv1");
    const seen = await listed("rv1", "/api/v1/admin/listings/pending");
    expect(seen.revision).toBe(0);
    const edit = await api("/api/v1/subleases/rv1", authed(student.access_token, { method: "PATCH", body: JSON.stringify({ monthly_rent: 150, university_id: 2 }) }));
    expect(edit.status).toBe(200);
    const stale = await verify("rv1", { status: "approved", revision: seen.revision });
    expect(stale.status).toBe(409);
    expect(await json(stale)).toEqual({ detail: "This listing changed since you opened it. Review the new version." });
    expect(await stateOf("rv1")).toEqual({ verification_status: "pending", revision: 1 });
    expect(await decisions("rv1")).toEqual([]);
    expect((await api("/api/v1/subleases/rv1")).status).toBe(404);

    const fresh = await listed("rv1");
    expect(fresh.revision).toBe(1);
    const ok = await verify("rv1", { status: "approved", revision: fresh.revision });
    expect(ok.status).toBe(200);
    expect(await json(ok)).toMatchObject({ success: true, changed: true, listing: { id: "rv1", verification_status: "approved", monthly_rent: 150, revision: 2 } });
    expect(await decisions("rv1")).toHaveLength(1);
    // The retry of that click: nothing changes, nothing more is logged.
    expect(await json(await verify("rv1", { status: "approved", revision: fresh.revision }))).toMatchObject({ changed: false });
    expect(await decisions("rv1")).toHaveLength(1);
  });

  it("refuses a revision that is not a whole number (422), and without one applies to the listing as it is (the contract's bare body)", async () => {
    await insertListing("rv2");
    expect((await verify("rv2", { status: "approved", revision: "latest" })).status).toBe(422);
    expect((await verify("rv2", { status: "approved", revision: -1 })).status).toBe(422);
    expect((await verify("rv2", { status: "approved" })).status).toBe(200);
    expect((await stateOf("rv2")).verification_status).toBe("approved");
  });

  it("two staff deciding at once (approve and reject, many times): one decision applies and is logged once, the other hears 409", async () => {
    for (let i = 0; i < 6; i++) {
      const id = `rvc${i}`;
      await insertListing(id);
      const { revision } = await listed(id, "/api/v1/admin/listings/pending");
      const [a, b] = await Promise.all([
        verify(id, { status: "approved", revision }),
        verify(id, { status: "rejected", rejection_reason: "Photos do not match", revision }),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const winner = a.status === 200 ? "approved" : "rejected";
      expect(await json(a.status === 409 ? a : b)).toEqual({ detail: "This listing changed since you opened it. Review the new version." });
      expect(await stateOf(id)).toEqual({ verification_status: winner, revision: revision + 1 });
      const logged = await decisions(id);
      expect(logged.map((d) => d.action)).toEqual([`listing_${winner}`]);
    }
  });

  it("two staff approving at once: one applies (changed true), the other changes nothing (changed false); one audit entry", async () => {
    for (let i = 0; i < 4; i++) {
      const id = `rva${i}`;
      await insertListing(id);
      const { revision } = await listed(id, "/api/v1/admin/listings/pending");
      const answers = await Promise.all([verify(id, { status: "approved", revision }), verify(id, { status: "approved", revision })]);
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      const changed = await Promise.all(answers.map(async (r) => (await json<{ changed: boolean }>(r)).changed));
      expect(changed.sort()).toEqual([false, true]);
      expect(await decisions(id)).toHaveLength(1);
      expect((await stateOf(id)).revision).toBe(revision + 1);
    }
  });

  it("shows the price check on every listing, pending or approved: comparables, median, verdict and the approved rent", async () => {
    for (let i = 0; i < 5; i++) await insertListing(`pcc${i}`, "approved", { university_id: 5, unit_type: "4x4", monthly_rent: 1000 + i * 100 });
    await insertListing("pcp", "pending", { university_id: 5, unit_type: "4x4", monthly_rent: 450 });
    await insertListing("pca", "approved", { university_id: 5, unit_type: "4x4", monthly_rent: 1100, approved_rent: 1300 });
    const pending = await listed("pcp", "/api/v1/admin/listings/pending");
    // Median of 1000..1400 and the approved 1100 (6 rents: 1100 and 1200 in the middle).
    expect(pending.price_check).toEqual({ comparables: 6, median: 1150, far_below: true, approved_rent: null });
    const live = await listed("pca");
    // Its own rent left out: 1000..1400, median 1200.
    expect(live.price_check).toEqual({ comparables: 5, median: 1200, far_below: false, approved_rent: 1300 });
    // The review's answer carries it too.
    const reviewed = await json<{ listing: Listed }>(await verify("pcp", { status: "rejected", rejection_reason: "Price too good to be true", revision: pending.revision }));
    expect(reviewed.listing.price_check).toMatchObject({ comparables: 6, median: 1150, far_below: true });
  });
});
