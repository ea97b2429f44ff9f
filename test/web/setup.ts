import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach, vi } from "vitest";
import { authStore } from "../../web/lib/auth-store";
import { signInPrompt } from "../../web/lib/sign-in-prompt";

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
