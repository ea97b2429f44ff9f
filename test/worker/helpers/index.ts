/** The worker tests' shared helpers: the API client, fixtures, sockets, staff and messaging. */
export * from "./api";
export * from "./fixtures";
export * from "./messaging";
export * from "./sockets";
export * from "./staff";
export * from "./deal-payments";
export * from "./evidence";
