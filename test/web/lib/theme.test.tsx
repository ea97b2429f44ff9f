import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ThemeProvider, useTheme } from "../../../web/lib/theme";

describe("the theme follows the device until the student chooses", () => {
  function fakeDeviceTheme(dark: boolean) {
    const listeners = new Set<() => void>();
    const media = {
      matches: dark,
      addEventListener: (_: string, l: () => void) => listeners.add(l),
      removeEventListener: (_: string, l: () => void) => listeners.delete(l),
    };
    window.matchMedia = ((query: string) => (query === "(prefers-color-scheme: dark)" ? media : { matches: false, addEventListener() {}, removeEventListener() {} })) as unknown as typeof window.matchMedia;
    return (next: boolean) => {
      media.matches = next;
      listeners.forEach((l) => l());
    };
  }
  function Toggle() {
    const { dark, toggle } = useTheme();
    return <button onClick={toggle}>{dark ? "Light mode" : "Dark mode"}</button>;
  }

  it("uses prefers-color-scheme without storing it, follows changes, and a stored choice wins", async () => {
    const original = window.matchMedia;
    try {
      const setDevice = fakeDeviceTheme(true);
      const user = userEvent.setup();
      const { unmount } = render(
        <ThemeProvider>
          <Toggle />
        </ThemeProvider>,
      );
      expect(document.documentElement).toHaveClass("dark");
      expect(localStorage.getItem("darkMode")).toBeNull();
      act(() => setDevice(false));
      expect(document.documentElement).not.toHaveClass("dark");
      expect(localStorage.getItem("darkMode")).toBeNull();

      await user.click(screen.getByRole("button", { name: "Dark mode" }));
      expect(localStorage.getItem("darkMode")).toBe("true");
      act(() => setDevice(false));
      expect(document.documentElement).toHaveClass("dark");
      unmount();

      localStorage.setItem("darkMode", "false");
      fakeDeviceTheme(true);
      render(
        <ThemeProvider>
          <Toggle />
        </ThemeProvider>,
      );
      expect(document.documentElement).not.toHaveClass("dark");
    } finally {
      window.matchMedia = original;
    }
  });
});
