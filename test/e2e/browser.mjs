/**
 * How we launch Debian's Chromium (never a downloaded browser). CHROMIUM_PATH overrides the path
 * for people with Chrome elsewhere. The flags keep it off this machine's closed network.
 */
export function chromiumPath() {
  return process.env.CHROMIUM_PATH || "/usr/bin/chromium";
}

export function launchOptions() {
  return {
    executablePath: chromiumPath(),
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  };
}
