import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, json } from "../helpers";

describe("health and version", () => {
  it("GET /api/health checks the database", async () => {
    const res = await api("/api/health");
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ status: "ok", database: "ok" });
  });

  it("GET /api/version answers the package version", async () => {
    const res = await api("/api/version");
    const body = await json<{ version: string }>(res);
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe("universities", () => {
  it("lists at least 150 US universities sorted by name, with and without the trailing slash", async () => {
    for (const path of ["/api/v1/universities/", "/api/v1/universities"]) {
      const res = await api(path);
      expect(res.status).toBe(200);
      const { data } = await json<{ data: { id: number; name: string; abbreviation: string }[] }>(res);
      expect(data.length).toBeGreaterThanOrEqual(150);
      const names = data.map((u) => u.name);
      expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      expect(data.find((u) => u.abbreviation === "UF")).toMatchObject({ name: "University of Florida" });
      for (const u of data) {
        expect(Number.isInteger(u.id)).toBe(true);
        expect(u.abbreviation.length).toBeGreaterThan(0);
      }
    }
  });

  it("covers every state and DC", async () => {
    const { results } = await env.DB.prepare("SELECT COUNT(DISTINCT state) AS states FROM universities").all<{
      states: number;
    }>();
    expect(results[0]!.states).toBe(51);
  });
});
