import { useState } from "react";
import { UNREAD_BADGE_CAP } from "@contract/constants";

/** "99+" above 99; nothing for 0. */
export function formatBadgeCount(count: number): string | null {
  if (!Number.isFinite(count) || count <= 0) return null;
  return count > UNREAD_BADGE_CAP ? `${UNREAD_BADGE_CAP}+` : String(Math.floor(count));
}

/**
 * A name's first letter with its combining marks ("É", never half of a surrogate pair), skipping emoji
 * and punctuation before it: a name starting with "🌸" gives its first letter, one without letters
 * nothing. A pattern rather than Intl.Segmenter: the same answer for letters, lighter on the home page.
 */
const firstLetter = (name?: string | null): string => (name && /\p{L}\p{M}*/u.exec(name)?.[0]) || "";

/** Up to two letters (first and last name), else "?". */
export function initialsOf(firstName?: string | null, lastName?: string | null): string {
  const initials = `${firstLetter(firstName)}${firstLetter(lastName)}`.toUpperCase();
  return initials || "?";
}

export const AVATAR_SIZES = [24, 32, 36, 40, 44, 56, 88] as const;

interface AvatarProps {
  src?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  /** Pixels: one of AVATAR_SIZES (sized by classes in styles.css: a style attribute in server-rendered markup breaks our CSP). */
  size?: (typeof AVATAR_SIZES)[number];
  /** Unread count shown as a badge on the avatar. */
  badge?: number;
}

/** The image, else the initials, else a fallback letter; optional unread badge capped at 99+. */
export function Avatar({ src, firstName, lastName, size = 36, badge = 0 }: AvatarProps) {
  const [failed, setFailed] = useState(false);
  const badgeText = formatBadgeCount(badge);
  return (
    <span className={`avatar avatar-${size}`}>
      {src && !failed ? (
        <img src={src} alt="" width={size} height={size} onError={() => setFailed(true)} />
      ) : (
        <span aria-hidden="true">{initialsOf(firstName, lastName)}</span>
      )}
      {badgeText && (
        <span className="avatar-badge">
          <span aria-hidden="true">{badgeText}</span>
          {/* aria-label is not allowed on a plain span; hidden text names the count instead. */}
          <span className="visually-hidden">{`${badgeText} unread messages`}</span>
        </span>
      )}
    </span>
  );
}
