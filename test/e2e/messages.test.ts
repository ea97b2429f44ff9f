/**
 * Two students talking in two browsers: a message reaches the other side through the room within a
 * second, the navbar badge counts and clears, and with WebSockets blocked polling still delivers.
 */
import { describe, expect, it } from "vitest";
import { useBrowser } from "./fixtures";
import { apiCall, apiLogin, newStudent, sendInThread, signedInSide, type AuthSession } from "./session";

const b = useBrowser({ width: 1280, height: 900 });


const contextFor = (session: AuthSession) => signedInSide(b.browser, b.baseUrl, session);

describe("messaging between two browsers", () => {
  it("delivers in real time, counts on the badge and clears when read", { timeout: 90_000 }, async () => {
    const owner = await newStudent(b.baseUrl, "Olive");
    const renter = await newStudent(b.baseUrl, "Rafa");
    const renterSide = await contextFor(renter);
    const ownerSide = await contextFor(owner);
    try {
      // Neither has a public listing: the renter opens the conversation by the owner's id.
      await renterSide.page.goto(`/messages?userId=${owner.user.id}`);
      const first = `Is the room still free? ${Date.now()}`;
      await sendInThread(renterSide.page, first);

      // The owner's badge counts it (the inbox room, or the 30 s poll at the latest).
      await ownerSide.page.goto("/");
      await ownerSide.page.getByText("1 unread messages").waitFor({ timeout: 35_000 });
      await ownerSide.page.goto("/messages");
      await ownerSide.page.getByRole("button", { name: /Rafa/ }).first().click();
      await ownerSide.page.getByRole("log").getByText(first).waitFor();
      // Opening the conversation marks it read: the badge clears.
      await expect.poll(() => ownerSide.page.getByText(/unread messages/).count(), { timeout: 10_000 }).toBe(0);

      // With both sides open, the next message arrives without a reload, within a second.
      const second = `Yes! When can you visit? ${Date.now()}`;
      await sendInThread(ownerSide.page, second);
      const started = Date.now();
      await renterSide.page.getByRole("log").getByText(second).waitFor({ timeout: 5_000 });
      expect(Date.now() - started).toBeLessThan(1_000);
      // The renter read it while looking at the thread: the owner sees "Seen".
      await ownerSide.page.getByText("Seen", { exact: true }).waitFor({ timeout: 10_000 });
      expect(ownerSide.page.url()).toContain("/messages");
    } finally {
      await renterSide.context.close();
      await ownerSide.context.close();
    }
  });

  it("still delivers through polling when WebSockets are blocked", { timeout: 90_000 }, async () => {
    const owner = await newStudent(b.baseUrl, "Nadia");
    const renter = await newStudent(b.baseUrl, "Theo");
    const renterSide = await contextFor(renter);
    const ownerSide = await contextFor(owner);
    // Every socket of the owner's browser is refused.
    await ownerSide.context.routeWebSocket(/\/parties\//, (ws) => ws.close({ code: 1011, reason: "blocked by the test" }));
    try {
      await renterSide.page.goto(`/messages?userId=${owner.user.id}`);
      const hello = `Hello through polling ${Date.now()}`;
      await sendInThread(renterSide.page, hello);
      await ownerSide.page.goto("/messages");
      await ownerSide.page.getByRole("button", { name: /Theo/ }).first().click();
      await ownerSide.page.getByRole("log").getByText(hello).waitFor();

      const later = `Are you still there? ${Date.now()}`;
      await sendInThread(renterSide.page, later);
      // The open conversation is polled every 15 s while its socket is down.
      await ownerSide.page.getByRole("log").getByText(later).waitFor({ timeout: 25_000 });
      expect(await ownerSide.page.getByRole("log").getByText(later).count()).toBe(1);
    } finally {
      await renterSide.context.close();
      await ownerSide.context.close();
    }
  });

  it("locks Message for visitors with the spec's text", async () => {
    const listing = await apiCall<{ data: { id: string }[] }>(b.baseUrl, "subleases/?limit=1");
    await b.page.goto(`/listing/${listing.data[0]!.id}`);
    await b.page.getByText("Create an account or sign in to message others").waitFor();
    await b.page.getByRole("button", { name: "Message" }).waitFor();
  });

  it("starts a conversation about a listing from its page", { timeout: 60_000 }, async () => {
    const renter = await newStudent(b.baseUrl, "Lena");
    const side = await contextFor(renter);
    try {
      const lister = await apiLogin(b.baseUrl, "lister@campusnest.dev", "lister-demo-123");
      const own = await apiCall<{ data: { id: string; title: string; verification_status: string; status: string; moderation_status: string }[] }>(
        b.baseUrl,
        "users/listings",
        { headers: { Authorization: `Bearer ${lister.access_token}` } },
      );
      const listing = own.data.find((l) => l.verification_status === "approved" && l.status === "available" && l.moderation_status === "visible")!;
      await side.page.goto(`/listing/${listing.id}`);
      await side.page.getByRole("link", { name: /^Message / }).click();
      await side.page.waitForURL(/\/messages\?/);
      // The thread header names the listing the conversation is about.
      await side.page.getByRole("link", { name: listing.title }).first().waitFor();
      await sendInThread(side.page, `Hi, about ${listing.title}`);
    } finally {
      await side.context.close();
    }
  });
});
