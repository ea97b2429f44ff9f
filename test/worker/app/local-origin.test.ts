/** Emailed links lead to the port the product runs on in local development. */
import { describe, expect, it } from "vitest";
import { withLocalOrigin, type Config } from "../../../worker/env";

const config = (isDevelopment: boolean, publicBaseUrl: string) => ({ isDevelopment, publicBaseUrl }) as Config;

describe("withLocalOrigin", () => {
  it("uses the request's own local address in development when PUBLIC_BASE_URL is local or empty", () => {
    expect(withLocalOrigin(config(true, "http://localhost:8787"), "http://localhost:3000/api/v1/auth/register").publicBaseUrl).toBe("http://localhost:3000");
    expect(withLocalOrigin(config(true, ""), "http://127.0.0.1:5173/x").publicBaseUrl).toBe("http://127.0.0.1:5173");
  });

  it("keeps PUBLIC_BASE_URL otherwise", () => {
    const same = config(true, "http://localhost:8787");
    expect(withLocalOrigin(same, "http://localhost:8787/x")).toBe(same);
    const tunnel = config(true, "https://my-tunnel.example");
    expect(withLocalOrigin(tunnel, "http://localhost:3000/x")).toBe(tunnel);
    const remote = config(true, "http://localhost:8787");
    expect(withLocalOrigin(remote, "https://staging.campusnest.app/x")).toBe(remote);
    const production = config(false, "https://campusnest.app");
    expect(withLocalOrigin(production, "http://localhost:3000/x")).toBe(production);
  });
});

describe("through the app", () => {
  it("a request to another local port builds its links on that port (robots.txt's sitemap line shows it)", async () => {
    const { api } = await import("../helpers");
    const text = await (await api("http://localhost:3000/robots.txt")).text();
    expect(text).toContain("Sitemap: http://localhost:3000/sitemap.xml");
  });
});
