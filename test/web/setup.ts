import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";
import { authStore } from "../../web/lib/auth-store";
import { signInPrompt } from "../../web/lib/sign-in-prompt";

// findBy*/waitFor give up after 1 s by default: a route's first render took longer on a busy 2-core
// machine (two test files at once, or other work beside the suite). A limit, not a timing assertion.
configure({ asyncUtilTimeout: 10_000 });

// jsdom has no layout, so no scrolling: its scrollTo only logs "Not implemented" (the router's scroll
// restoration calls it on every navigation). A no-op keeps the test output readable.
window.scrollTo = () => {};

afterEach(() => {
  cleanup();
  localStorage.clear();
  authStore.reload();
  // The Sign In popup's state lives outside React: each test starts with it closed.
  signInPrompt.close();
  signInPrompt.takeIntent();
  document.documentElement.className = "";
  vi.restoreAllMocks();
  vi.useRealTimers();
});
