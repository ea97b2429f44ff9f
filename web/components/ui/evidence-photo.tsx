/**
 * A private evidence photo of a deal (a problem's, a statement's; docs/decisions/032). A browser sends no
 * bearer header for an <img>, so `load` fetches it with the reader's (a party's or staff's) and it is
 * shown from a blob: URL, revoked when the photo goes. Never a public address.
 */
import { useEffect, useMemo } from "react";
import { useQuery } from "@tanstack/react-query";

/** The API client's path of an evidence url (`/api/v1/evidence/{name}` is `evidence/{name}`). */
export const evidencePath = (url: string) => url.replace(/^\/api\/v1\//, "");

export function EvidencePhoto({ url, alt, load }: { url: string; alt: string; load: (path: string) => Promise<Blob> }) {
  const photo = useQuery({ queryKey: ["evidence-photo", url], queryFn: () => load(evidencePath(url)), staleTime: Infinity, gcTime: 0, retry: false });
  const src = useMemo(() => (photo.data ? URL.createObjectURL(photo.data) : null), [photo.data]);
  useEffect(
    () => () => {
      if (src) URL.revokeObjectURL(src);
    },
    [src],
  );
  if (photo.isError) return <span className="muted">{alt}: could not be loaded</span>;
  if (!src) return <span className="muted">Loading the photo…</span>;
  return (
    <a href={src} target="_blank" rel="noreferrer">
      <img src={src} alt={alt} />
    </a>
  );
}
