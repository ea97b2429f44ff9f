// Applies the stored theme before React loads, so a dark-mode user never sees a light flash.
// (A file, not an inline script, so the Content-Security-Policy can forbid inline scripts.)
try {
  if (localStorage.getItem("darkMode") === "true") {
    document.documentElement.classList.add("dark");
    document.documentElement.style.colorScheme = "dark";
  }
} catch {
  /* storage unavailable: light theme */
}
