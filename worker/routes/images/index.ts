import { createRouter } from "../../lib/context";
import { notFound } from "../../lib/errors";
import { IMMUTABLE } from "../../services/storage";

/** GET images/{key}: public images only (never the identity-document bucket). */
export const imagesRoutes = createRouter().get("/*", async (c) => {
  const key = c.req.path.replace(/^\/api\/v1\/images\//, "");
  if (!/^(listings|avatars)\/[A-Za-z0-9_-]+(\.thumb)?\.(jpg|png|webp|gif)$/.test(key)) throw notFound("Image not found");
  const object = await c.env.IMAGES.get(key);
  if (!object) throw notFound("Image not found");
  return new Response(object.body, {
    headers: {
      "Content-Type": object.httpMetadata?.contentType ?? "application/octet-stream",
      "Cache-Control": IMMUTABLE,
      ETag: object.httpEtag,
      "X-Content-Type-Options": "nosniff",
    },
  });
});
