/** ISO 8601 UTC timestamps, the format every timestamp column uses. */
export const isoNow = (now: number = Date.now()): string => new Date(now).toISOString();
export const isoIn = (ms: number, now: number = Date.now()): string => new Date(now + ms).toISOString();
