import { useEffect, useState } from "react";
import { Link } from "react-router-dom";
import { useQuery } from "@tanstack/react-query";
import { TIMINGS } from "@contract/constants";
import type { VersionResponse } from "@contract/api";
import { APP_VERSION, SUPPORT_EMAIL } from "../../config/env";
import { paths } from "../../config/paths";
import { useTheme } from "../../lib/theme";
import { deferred } from "../ui/deferred";
import { MoonIcon, SunIcon } from "../ui/icons";

/** The server's version, else /version.txt, else the version this bundle was built with. */
async function fetchVersion(): Promise<string> {
  const api = await fetch("/api/version").catch(() => null);
  if (api?.ok) return ((await api.json()) as VersionResponse).version;
  const file = await fetch("/version.txt");
  if (!file.ok) throw new Error("no version");
  return (await file.text()).trim();
}

/** True while any email input on the page holds text that is not a valid address. */
export function hasInvalidEmailInput(root: ParentNode = document): boolean {
  return [...root.querySelectorAll<HTMLInputElement>('input[type="email"]')].some(
    (input) => input.value.trim() !== "" && !input.validity.valid,
  );
}

function useInvalidEmailWatch(): boolean {
  const [invalid, setInvalid] = useState(false);
  useEffect(() => {
    const check = () => setInvalid(hasInvalidEmailInput());
    check();
    const timer = window.setInterval(check, TIMINGS.emailValidityPollMs);
    return () => window.clearInterval(timer);
  }, []);
  return invalid;
}

// The developer tools load when the capsule is first opened (docs/decisions/023).
const DeveloperPanel = deferred(() => import("./developer-panel").then((m) => m.DeveloperPanel));

export function Footer() {
  const { dark, toggle } = useTheme();
  const version = useQuery({ queryKey: ["version"], queryFn: fetchVersion, staleTime: Infinity, retry: false });
  const emailInvalid = useInvalidEmailWatch();
  const [devOpen, setDevOpen] = useState(false);

  return (
    <footer className="footer">
      <div className="container footer-inner">
        <nav className="footer-links" aria-label="Footer">
          <Link to={paths.support}>Support</Link>
          <Link to={paths.terms}>Terms</Link>
          <Link to={paths.safety}>Safety</Link>
          <a href={`mailto:${SUPPORT_EMAIL}`}>Contact {SUPPORT_EMAIL}</a>
        </nav>
        <div className="footer-capsules">
          <button
            type="button"
            className="capsule"
            onClick={toggle}
            aria-label={dark ? "Switch to light mode" : "Switch to dark mode"}
          >
            {dark ? <SunIcon /> : <MoonIcon />}
            <span>{dark ? "Light" : "Dark"}</span>
          </button>
          <span className="capsule" title="Version">
            v{version.data ?? APP_VERSION}
          </span>
          <span className="capsule" role="status" aria-live="polite">
            <span className={`status-dot${emailInvalid ? " status-dot-error" : ""}`} aria-hidden="true" />
            {emailInvalid ? "Invalid email" : "OK"}
          </span>
          <button
            type="button"
            className="capsule"
            aria-expanded={devOpen}
            aria-controls="developer-panel"
            onClick={() => setDevOpen((o) => !o)}
          >
            Developer
          </button>
        </div>
        <DeveloperPanel load={devOpen} open={devOpen} />
      </div>
    </footer>
  );
}
