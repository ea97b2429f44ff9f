/**
 * What a newcomer met in a real browser: signing out in one tab signs every tab out at once, and a chat
 * with deal cards opens on its newest message (the cards load after the messages and grow above it).
 */
import type { Page } from "playwright-core";
import { describe, expect, it, vi } from "vitest";
import { useBrowser } from "./fixtures";
import { apiCall, apiLogin, signInContext, type AuthSession } from "./session";

const b = useBrowser({ width: 1280, height: 900 });

/** A new student of this file's own (confirmed by the emailed code), signed in through the API. */
async function newStudent(name: string): Promise<AuthSession> {
  const email = `${name}.${Date.now()}@newcomer.test`;
  await apiCall(b.baseUrl, "auth/register", { method: "POST", body: JSON.stringify({ email, password: "newcomer-pass-1", first_name: name, last_name: "Newcomer" }) });
  const code = await vi.waitFor(
    async () => {
      const { data } = await apiCall<{ data: { text: string }[] }>(b.baseUrl, `dev/emails?to=${encodeURIComponent(email)}`);
      const found = /\b(\d{6})\b/.exec(data[0]?.text ?? "")?.[1];
      if (!found) throw new Error(`no code for ${email}`);
      return found;
    },
    { timeout: 5_000, interval: 100 },
  );
  return apiCall<AuthSession>(b.baseUrl, "auth/verify-email", { method: "POST", body: JSON.stringify({ email, code }) });
}

const as = (s: AuthSession) => ({ Authorization: `Bearer ${s.access_token}` });

/** A conversation between `renter` and the demo lister about one of the lister's dated listings. */
async function conversationWithLister(renter: AuthSession) {
  const lister = await apiLogin(b.baseUrl, "lister@campusnest.dev", "lister-demo-123");
  const own = await apiCall<{ data: { id: string; verification_status: string; status: string; available_from: string | null; available_to: string | null }[] }>(
    b.baseUrl,
    "users/listings?include_unavailable=true",
    { headers: as(lister) },
  );
  const listing = own.data.find((l) => l.verification_status === "approved" && l.status === "available" && l.available_from && l.available_to)!;
  const { data } = await apiCall<{ data: { id: string } }>(b.baseUrl, "messages/conversations", {
    method: "POST",
    headers: as(renter),
    body: JSON.stringify({ participant_id: lister.user.id, listing_id: listing.id }),
  });
  const say = (who: AuthSession, text: string) =>
    apiCall(b.baseUrl, `messages/conversations/${data.id}/send`, { method: "POST", headers: as(who), body: JSON.stringify({ text, conversation_id: data.id }) });
  return { id: data.id, lister, listing, say };
}

/** Whether the message reading `text` lies wholly within the visible part of the open conversation's log. */
const inView = (page: Page, text: string) =>
  page.evaluate((t) => {
    const log = document.querySelector(".thread-log")!.getBoundingClientRect();
    const bubble = Array.from(document.querySelectorAll(".bubble-text")).find((el) => el.textContent === t)?.getBoundingClientRect();
    return !!bubble && bubble.top >= log.top - 1 && bubble.bottom <= log.bottom + 1;
  }, text);

describe("one browser, several tabs", () => {
  it("signing out in one tab signs the other out at once: it stops showing and sending as the student", async () => {
    const renter = await newStudent("Tabs");
    const chat = await conversationWithLister(renter);
    await chat.say(renter, "Hello from the first tab");
    await signInContext(b.context, renter);
    const first = b.page;
    // The first tab's clock is ours: after the sign-out, a minute of its polls and retries runs at once.
    await first.clock.install();
    // What the first tab sends, in the order it happens, and the moment it learns of the sign-out (the
    // `storage` event). This listener is registered before the app's, so it is the first to hear of it.
    // Calls sent before that moment went out as the student rightly: the tab could not know yet.
    await first.addInitScript(() => {
      const w = window as unknown as { __order: number; __signedOutAt: number | null; __calls: { at: number; url: string; auth: boolean }[] };
      w.__order = 0;
      w.__signedOutAt = null;
      w.__calls = [];
      const send = window.fetch.bind(window);
      window.fetch = (input, init) => {
        const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
        w.__calls.push({ at: ++w.__order, url, auth: new Headers(init?.headers).has("authorization") });
        return send(input, init);
      };
      window.addEventListener("storage", () => {
        if (w.__signedOutAt === null && localStorage.getItem("auth_token") === null) w.__signedOutAt = ++w.__order;
      });
    });
    await first.goto(`/messages?conversation=${chat.id}`);
    const composer = first.getByRole("textbox", { name: /^Message to / });
    await composer.waitFor();
    const second = await b.context.newPage();
    await second.goto("/");
    await second.getByRole("button", { name: "Account menu" }).click();
    const signOut = second.getByRole("menuitem", { name: "Sign Out" });
    await signOut.waitFor();
    await signOut.click();
    await second.getByRole("button", { name: "Sign In" }).first().waitFor();

    // The first tab, untouched: signed out without a reload.
    await first.getByText("Please log in to send messages").waitFor();
    expect(await composer.count()).toBe(0);
    expect(await first.getByRole("button", { name: "Account menu" }).count()).toBe(0);
    expect(await first.evaluate(() => localStorage.getItem("auth_token"))).toBeNull();
    // Nothing more goes out as the student from it once it knows, in the next minute either (its polls
    // and room are gone with the page).
    await first.clock.runFor(60_000);
    const { signedOutAt, sentAs } = await first.evaluate(() => {
      const w = window as unknown as { __signedOutAt: number | null; __calls: { at: number; url: string; auth: boolean }[] };
      return { signedOutAt: w.__signedOutAt, sentAs: w.__calls.filter((c) => c.auth && c.url.includes("/api/v1/") && c.at > (w.__signedOutAt ?? 0)).map((c) => c.url) };
    });
    expect(signedOutAt).not.toBeNull();
    expect(sentAs).toEqual([]);
    expect(b.errors).toEqual([]);
  });
});

describe("a conversation with deal cards", () => {
  it("opens on its newest message, after the cards have loaded, on a desktop and on a slow phone", async () => {
    const renter = await newStudent("Cards");
    const chat = await conversationWithLister(renter);
    const day = (from: string, days: number) => new Date(Date.parse(`${from}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
    const today = new Date().toISOString().slice(0, 10);
    const start = chat.listing.available_from! > today ? chat.listing.available_from! : day(today, 2);
    // Three requests, each after a few messages: the cards sit among the newest messages.
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) await chat.say(j % 2 ? chat.lister : renter, `Question ${i}.${j}: is the room still free then? A longer line, so the bubble wraps.`);
      await apiCall(b.baseUrl, "deals", {
        method: "POST",
        headers: as(renter),
        body: JSON.stringify({ listing_id: chat.listing.id, move_in: day(start, i * 7), move_out: day(start, i * 7 + 5) }),
      });
    }
    const newest = "Thanks, talk soon!";
    await chat.say(renter, newest);

    // A desktop, and a phone at 4x CPU slowdown: on a slow phone the cards load late, one by one, and the
    // browser's scroll anchoring moves the log as they grow (only the reader's own scroll may unstick it).
    for (const { viewport, slowdown } of [
      { viewport: { width: 1280, height: 900 }, slowdown: 1 },
      { viewport: { width: 360, height: 740 }, slowdown: 4 },
    ]) {
      const context = await b.browser.newContext({ viewport, baseURL: b.baseUrl });
      await signInContext(context, renter);
      const page = await context.newPage();
      await (await context.newCDPSession(page)).send("Emulation.setCPUThrottlingRate", { rate: slowdown });
      await page.goto(`/messages?conversation=${chat.id}`);
      // Every card has its deal (each loads on its own, after the messages are drawn).
      await vi.waitFor(async () => expect(await page.locator("article.deal-card").count()).toBe(3), { timeout: 15_000, interval: 100 });
      await vi.waitFor(async () => expect(await inView(page, newest), `${viewport.width} px`).toBe(true), { timeout: 15_000, interval: 100 });
      await context.close();
    }
  });
});
