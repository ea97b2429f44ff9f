import { useCallback } from "react";
import { Avatar } from "../../../components/ui/avatar";
import { Loadable } from "../../../components/ui/loadable";
import { useToast } from "../../../components/ui/toast";
import { errorMessage } from "../../../lib/api-client";
import type { AdminUserStatus } from "../api/admin-api";
import { useSetUserStatus } from "../api/admin-mutations";
import { useAdminUsers } from "../api/admin-queries";
import { formatStaffTime } from "../lib/format";
import { SuspendedLine } from "./suspended-line";

const STATUS_WORD: Record<AdminUserStatus, string> = { verified: "verify", unverified: "unverify", pending: "set to pending" };

/**
 * The user cards. The search lives in the panel so another tab can open a user's card (the lister
 * link of a listing fills it with the user's id); focusSearch then moves focus to the filled box, once.
 */
export function UsersTab({
  search,
  onSearchChange: setSearch,
  focusSearch,
  onSearchFocused,
}: {
  search: string;
  onSearchChange: (search: string) => void;
  focusSearch: boolean;
  onSearchFocused: () => void;
}) {
  const users = useAdminUsers();
  const setStatus = useSetUserStatus();
  // Stable, so focus moves only when the box first appears, not on every render.
  const searchRef = useCallback(
    (input: HTMLInputElement | null) => {
      if (!input || !focusSearch) return;
      input.focus();
      onSearchFocused();
    },
    [focusSearch, onSearchFocused],
  );
  const toast = useToast();
  function changeStatus(id: string, status: AdminUserStatus) {
    const word = STATUS_WORD[status];
    if (!window.confirm(`Are you sure you want to ${word} this user?`)) return;
    setStatus.mutate(
      { id, status },
      {
        onSuccess: () => toast.show(`User ${word === "set to pending" ? "set to pending" : `${word}ed`} successfully!`, { kind: "success" }),
        onError: (err) => toast.show(`Failed to ${word} user: ${errorMessage(err)}`, { kind: "error", durationMs: 4000 }),
      },
    );
  }
  return (
    <Loadable query={users} label="users">
      {(all) => {
        const q = search.trim().toLowerCase();
        const shown = q ? all.filter((u) => `${u.first_name} ${u.last_name} ${u.email} ${u.id}`.toLowerCase().includes(q)) : all;
        return (
          <div className="stack">
            <div className="admin-toolbar">
              <span className="muted" aria-live="polite">{q ? `${shown.length} of ${all.length} users` : `${all.length} users`}</span>
              <div className="search-row">
                <input ref={searchRef} type="search" aria-label="Search users" placeholder="Search by name, email, or ID..." value={search} onChange={(e) => setSearch(e.target.value)} />
                {search && (
                  <button type="button" className="button button-ghost" onClick={() => setSearch("")}>
                    Clear
                  </button>
                )}
              </div>
            </div>
            {all.length === 0 ? (
              <div className="panel empty-state">
                <p>No users found. Make sure your backend is running and connected to the database.</p>
                <button type="button" className="button button-primary" onClick={() => users.refetch()}>
                  Try Again
                </button>
              </div>
            ) : shown.length === 0 ? (
              <div className="panel empty-state">
                <p>No users match your search query.</p>
                <button type="button" className="button button-primary" onClick={() => setSearch("")}>
                  Clear Search
                </button>
              </div>
            ) : (
              <ul className="admin-cards">
                {shown.map((u) => (
                  <li key={u.id} className="panel admin-user">
                    <Avatar src={u.avatar_url} firstName={u.first_name} lastName={u.last_name} size={44} />
                    <div className="admin-user-text">
                      <strong>{`${u.first_name} ${u.last_name}`.trim() || "Unknown User"}</strong>{" "}
                      <span className={`badge badge-${u.id_verification_status}`}>{u.id_verification_status}</span>
                      <span className="muted">{u.email || "No email"}</span>
                      <span className="muted mono">ID: {u.id}</span>
                      <span className="muted">
                        Joined <time dateTime={u.created_at}>{formatStaffTime(u.created_at)}</time>
                      </span>
                      {u.suspended_at && <SuspendedLine userId={u.id} since={u.suspended_at} />}
                    </div>
                    <label className="field">
                      <span className="field-label">Status</span>
                      <select
                        value={["verified", "pending"].includes(u.id_verification_status) ? u.id_verification_status : "unverified"}
                        onChange={(e) => changeStatus(u.id, e.target.value as AdminUserStatus)}
                      >
                        <option value="unverified">Unverified</option>
                        <option value="pending">Pending</option>
                        <option value="verified">Verified</option>
                      </select>
                    </label>
                  </li>
                ))}
              </ul>
            )}
          </div>
        );
      }}
    </Loadable>
  );
}
