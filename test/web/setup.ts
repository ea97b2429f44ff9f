import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach, vi } from "vitest";
import { authStore } from "../../web/lib/auth-store";

afterEach(() => {
  cleanup();
  localStorage.clear();
  authStore.reload();
  document.documentElement.className = "";
  vi.restoreAllMocks();
  vi.useRealTimers();
});
