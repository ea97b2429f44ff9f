import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../../../worker/app";
import { signLocationToken } from "../../../worker/services/geo-token";
import { api, authed, json, type Session, signUp } from "../helpers";

afterEach(() => vi.restoreAllMocks());

/** Geocoding is for ID-verified users (who alone list a place). */
let lister: Session;
beforeAll(async () => {
  lister = await signUp("geo-suggestions@ufl.edu");
  await env.DB.prepare("UPDATE users SET id_verification_status = 'verified' WHERE id = ?").bind(lister.user.id).run();
});

const call = (q: string, vars: Record<string, string>) =>
  createApp().fetch(new Request(`http://localhost/api/v1/geo/autocomplete?q=${encodeURIComponent(q)}`, authed(lister.access_token)), { ...env, ...vars } as Env);

describe("address autocomplete", () => {
  it("answers no suggestions without a provider, and for fewer than 3 characters", async () => {
    expect(await json(await api("/api/v1/geo/autocomplete?q=123%20Main", authed(lister.access_token)))).toEqual({ data: [] });
    const spy = vi.spyOn(globalThis, "fetch");
    expect(await json(await call("12", { GEO_PROVIDER: "nominatim" }))).toEqual({ data: [] });
    expect(spy).not.toHaveBeenCalled();
  });

  it("asks Nominatim for US addresses near Gainesville and keeps 5", async () => {
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      expect(url.hostname).toBe("geo.test");
      expect(url.searchParams.get("countrycodes")).toBe("us");
      expect(url.searchParams.get("q")).toBe("13th St");
      return Response.json(Array.from({ length: 7 }, (_, i) => ({ display_name: `${i} SW 13th St, Gainesville, FL`, lat: "29.6", lon: "-82.3" })));
    });
    const res = await call("13th St", { GEO_PROVIDER: "nominatim", NOMINATIM_URL: "https://geo.test/search" });
    const { data } = await json<{ data: { description: string; lat: number }[] }>(res);
    expect(data).toHaveLength(5);
    // With the token a listing needs to keep those coordinates (services/geo-token).
    expect(data[0]).toEqual({
      description: "0 SW 13th St, Gainesville, FL",
      lat: 29.6,
      lng: -82.3,
      location_token: await signLocationToken(env.JWT_SECRET, "0 SW 13th St, Gainesville, FL", { latitude: 29.6, longitude: -82.3 }),
    });
    expect(spy).toHaveBeenCalledOnce();
  });

  it("uses Google Places with a key, and a failing provider answers no suggestions", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementationOnce(async (_input, init) => {
      expect(new Headers(init?.headers).get("X-Goog-Api-Key")).toBe("k");
      return Response.json({ suggestions: [{ placePrediction: { text: { text: "1 Main St, Gainesville, FL" } } }] });
    });
    // No coordinates, no token.
    expect(await json(await call("1 Main", { GEO_PROVIDER: "google", GOOGLE_PLACES_API_KEY: "k" }))).toEqual({
      data: [{ description: "1 Main St, Gainesville, FL", lat: null, lng: null }],
    });
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response("down", { status: 503 }));
    vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(await json(await call("1 Main", { GEO_PROVIDER: "google", GOOGLE_PLACES_API_KEY: "k" }))).toEqual({ data: [] });
  });
});
