import { useEffect, useLayoutEffect } from "react";
import { useLocation, useNavigationType } from "react-router-dom";

/** Where each visited entry of this tab's history was scrolled to, by location key. */
const positions = new Map<string, number>();

/**
 * Scroll like a website (the data router's ScrollRestoration, which the declarative router lacks):
 * a new page starts at the top, Back and Forward return to where the page was left, and a replaced
 * entry (a browse filter changed) keeps its place.
 */
export function ScrollRestoration() {
  const location = useLocation();
  const navigation = useNavigationType();

  useEffect(() => {
    const save = () => positions.set(location.key, window.scrollY);
    window.addEventListener("scroll", save, { passive: true });
    return () => window.removeEventListener("scroll", save);
  }, [location.key]);

  useLayoutEffect(() => {
    if (navigation === "POP") {
      const y = positions.get(location.key);
      if (y !== undefined) window.scrollTo(0, y);
    } else if (navigation === "PUSH" && !location.hash) {
      window.scrollTo(0, 0);
    }
  }, [location.key, location.hash, navigation]);
  return null;
}
