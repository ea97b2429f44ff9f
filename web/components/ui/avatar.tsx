import { useState } from "react";
import { UNREAD_BADGE_CAP } from "@contract/constants";

/** "99+" above 99; nothing for 0. */
export function formatBadgeCount(count: number): string | null {
  if (!Number.isFinite(count) || count <= 0) return null;
  return count > UNREAD_BADGE_CAP ? `${UNREAD_BADGE_CAP}+` : String(Math.floor(count));
}

export function initialsOf(firstName?: string | null, lastName?: string | null): string {
  const initials = `${firstName?.trim()[0] ?? ""}${lastName?.trim()[0] ?? ""}`.toUpperCase();
  return initials || "?";
}

interface AvatarProps {
  src?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  size?: number;
  /** Unread count shown as a badge on the avatar. */
  badge?: number;
}

/** The image, else the initials, else a fallback letter; optional unread badge capped at 99+. */
export function Avatar({ src, firstName, lastName, size = 36, badge = 0 }: AvatarProps) {
  const [failed, setFailed] = useState(false);
  const badgeText = formatBadgeCount(badge);
  return (
    <span className="avatar" style={{ width: size, height: size, fontSize: size * 0.4 }}>
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
