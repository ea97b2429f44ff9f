// Applies the theme before React loads, so a dark-mode user never sees a light flash: the stored
// choice (darkMode) wins; without one, the device's setting. Same rule as web/lib/theme.tsx.
// (A file, not an inline script, so the Content-Security-Policy can forbid inline scripts.)
try {
  var stored = localStorage.getItem("darkMode");
  var dark = stored === null ? window.matchMedia("(prefers-color-scheme: dark)").matches : stored === "true";
  if (dark) {
    document.documentElement.classList.add("dark");
    document.documentElement.style.colorScheme = "dark";
  }
} catch {
  /* storage or matchMedia unavailable: light theme */
}
