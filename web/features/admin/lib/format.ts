/** Staff timestamps are shown in New York time (spec). */
export const NY_TIME = new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", dateStyle: "medium", timeStyle: "short", hour12: true });
