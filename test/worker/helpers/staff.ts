import { env } from "cloudflare:test";
import { json, post } from "./api";

/** A staff session's token, signed in with the test ADMIN_PASSWORD as the staff panel does. */
export async function adminLogin(): Promise<string> {
  const res = await post("/api/v1/admin/login", { password: env.ADMIN_PASSWORD });
  if (res.status !== 200) throw new Error(`admin login ${res.status}: ${await res.text()}`);
  return (await json<{ token: string }>(res)).token;
}
