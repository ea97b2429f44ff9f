/** The worker tests' shared helpers: the API client, fixtures, sockets, staff, messaging and the queues. */
export * from "./api";
export * from "./fixtures";
export * from "./messaging";
export * from "./sockets";
export * from "./staff";
export * from "./deal-payments";
export * from "./queues";
export * from "./images";
export * from "./evidence";
