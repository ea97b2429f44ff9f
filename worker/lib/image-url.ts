/**
 * Public URL of an object in the IMAGES bucket (served by GET /api/v1/images/{key}). Its own module:
 * every query module that maps a row with a photo or an avatar uses it, so it must not live in any one
 * of them (conversations.ts and users.ts once imported each other for it).
 */
export const imageUrl = (key: string | null): string | null => (key ? `/api/v1/images/${key}` : null);
