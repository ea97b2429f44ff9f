import { useCallback, useState } from "react";
import type { AdminUser } from "@contract/admin";
import { Avatar } from "../../../components/ui/avatar";
import { Dialog } from "../../../components/ui/dialog";
import { useToast } from "../../../components/ui/toast";
import { errorMessage } from "../../../lib/api-client";
import type { AdminUserStatus } from "../api/admin-api";
import { useSetUserStatus } from "../api/admin-mutations";
import { useAdminStats, useAdminUsers } from "../api/admin-queries";
import { formatStaffTime } from "../lib/format";
import { useDebounced } from "../lib/use-debounced";
import { counted, PagedList, SearchBox } from "./paged-list";
import { SuspendedLine } from "./suspended-line";

const STATUS_WORD: Record<AdminUserStatus, string> = { verified: "verify", unverified: "unverify", pending: "set to pending" };

/**
 * The user cards, a page at a time, newest first; the search box asks the server (an id, an email, or
 * words of a name or email: docs/decisions/038). The search lives in the panel so another tab can open
 * a user's card (the lister link of a listing fills it with the user's id); focusSearch then moves
 * focus to the filled box, once.
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
  const q = useDebounced(search.trim());
  const users = useAdminUsers(q);
  const total = useAdminStats().data?.users;
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
  // The change asked for in a status menu, confirmed in the app's dialog (not the browser's).
  const [asked, setAsked] = useState<{ user: AdminUser; status: AdminUserStatus } | null>(null);
  function changeStatus(id: string, status: AdminUserStatus) {
    const word = STATUS_WORD[status];
    setStatus.mutate(
      { id, status },
      {
        onSuccess: () => toast.show(`User ${word === "set to pending" ? "set to pending" : `${word}ed`} successfully!`, { kind: "success" }),
        onError: (err) => toast.show(`Failed to ${word} user: ${errorMessage(err)}`, { kind: "error", durationMs: 4000 }),
      },
    );
  }
  const found = users.items?.length;
  return (
    <div className="stack">
      <div className="admin-toolbar">
        <span className="muted" aria-live="polite">
          {q ? (found === undefined ? "" : `${found}${users.hasNextPage ? "+" : ""} found`) : total !== undefined ? counted(total, "user", "users") : ""}
        </span>
        <SearchBox label="Search users" placeholder="Search by name, email, or ID..." value={search} onChange={setSearch} inputRef={searchRef} />
      </div>
      <PagedList query={users} label="users">
        {(list) =>
          list.length === 0 && !q ? (
            <div className="panel empty-state">
              <p>No users found. Make sure your backend is running and connected to the database.</p>
              <button type="button" className="button button-primary" onClick={() => users.refetch()}>
                Try Again
              </button>
            </div>
          ) : list.length === 0 ? (
            <div className="panel empty-state">
              <p>No users match your search query.</p>
              <button type="button" className="button button-primary" onClick={() => setSearch("")}>
                Clear Search
              </button>
            </div>
          ) : (
            <ul className="admin-cards">
              {list.map((u) => (
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
                      onChange={(e) => setAsked({ user: u, status: e.target.value as AdminUserStatus })}
                    >
                      <option value="unverified">Unverified</option>
                      <option value="pending">Pending</option>
                      <option value="verified">Verified</option>
                    </select>
                  </label>
                </li>
              ))}
            </ul>
          )
        }
      </PagedList>
      {asked && <StatusDialog user={asked.user} status={asked.status} onClose={() => setAsked(null)} onConfirm={() => changeStatus(asked.user.id, asked.status)} />}
    </div>
  );
}

/**
 * Confirms a status change by name. Verifying someone with no ID document under review (status
 * unverified or rejected) says so: they could then list without any ID check.
 */
function StatusDialog({ user, status, onClose, onConfirm }: { user: AdminUser; status: AdminUserStatus; onClose: () => void; onConfirm: () => void }) {
  const name = `${user.first_name} ${user.last_name}`.trim() || user.email || "this user";
  const word = STATUS_WORD[status];
  const noDocument = status === "verified" && (user.id_verification_status === "unverified" || user.id_verification_status === "rejected");
  return (
    <Dialog
      open
      alert
      size="sm"
      onClose={onClose}
      title={status === "pending" ? `Set ${name} to pending?` : `${word[0]!.toUpperCase()}${word.slice(1)} ${name}?`}
      description={
        noDocument
          ? `${name} has no ID document under review${user.id_verification_status === "rejected" ? " (their last one was rejected)" : ""}. Verifying lets them create listings without an ID check.`
          : `Their ID status changes from ${user.id_verification_status} to ${status}.`
      }
      footer={
        <>
          <button type="button" className="button button-ghost" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="button button-primary"
            onClick={() => {
              onClose();
              onConfirm();
            }}
          >
            {noDocument ? "Verify without a document" : `${word[0]!.toUpperCase()}${word.slice(1)}`}
          </button>
        </>
      }
    />
  );
}
