import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState, type FormEvent, type ReactNode } from "react";
import type { AdminStats } from "@contract/admin";
import { LIMITS } from "@contract/constants";
import { Avatar } from "../../../components/ui/avatar";
import { Dialog } from "../../../components/ui/dialog";
import { TextAreaField, TextField } from "../../../components/ui/field";
import { PageLoadingInline } from "../../../components/ui/spinner";
import { Tabs } from "../../../components/ui/tabs";
import { useToast } from "../../../components/ui/toast";
import { Tooltip } from "../../../components/ui/tooltip";
import { PLACEHOLDER_IMAGE } from "../../../components/ui/carousel";
import { paths } from "../../../config/paths";
import { errorMessage } from "../../../lib/api-client";
import { formatRent } from "../../../lib/listings-api";
import { adminApi, adminSession, useAdminToken, type AdminListing, type ReviewItem } from "../api/admin-api";

const NY_TIME = new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", dateStyle: "medium", timeStyle: "short", hour12: true });
const DAY = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

/** Tab title 'Admin Panel' and the red icon while the panel is open. */
function useAdminChrome() {
  useEffect(() => {
    const title = document.title;
    document.title = "Admin Panel";
    const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    const previous = icon?.href;
    if (icon) icon.href = "/admin-icon.svg";
    return () => {
      document.title = title;
      if (icon && previous) icon.href = previous;
    };
  }, []);
}

function LoginView() {
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!password) return;
    setBusy(true);
    try {
      const { token } = await adminApi.login(password);
      adminSession.set(token);
    } catch {
      // Spec: a wrong or failed login shows nothing and clears the field.
      setPassword("");
    } finally {
      setBusy(false);
    }
  }
  return (
    <main className="admin-login">
      <h1 className="visually-hidden">Admin Panel</h1>
      {adminSession.expired() && (
        <p className="form-error" role="alert">
          Session expired. Please log in again.
        </p>
      )}
      <form onSubmit={onSubmit} className="admin-login-form" aria-label="Admin sign in">
        <label className="visually-hidden" htmlFor="admin-password">
          Admin password
        </label>
        <input id="admin-password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} autoFocus />
        <button type="submit" className="button button-primary" aria-label="Sign in" disabled={busy}>
          →
        </button>
      </form>
    </main>
  );
}

function Loadable<T>({ query, children, label }: { query: { isPending: boolean; isError: boolean; error: unknown; data?: T; refetch: () => unknown }; children: (data: T) => ReactNode; label: string }) {
  if (query.isPending) return <p className="muted">Loading…</p>;
  if (query.isError)
    return (
      <div className="form-error" role="alert">
        {`Failed to fetch ${label}`}: {errorMessage(query.error)}{" "}
        <button type="button" className="link-button" onClick={() => query.refetch()}>
          Retry
        </button>
      </div>
    );
  return <>{children(query.data as T)}</>;
}

function GrowthChart({ growth }: { growth: AdminStats["user_growth"] }) {
  const max = 200;
  return (
    <figure className="chart">
      <figcaption>New users, last 10 days</figcaption>
      <svg viewBox="0 -12 420 242" role="img" aria-label={growth.map((g) => `${g.date}: ${g.users}`).join(", ")}>
        {[0, 50, 100, 150, 200].map((v) => (
          <g key={v}>
            <line x1="36" x2="415" y1={200 - v} y2={200 - v} stroke="currentColor" strokeOpacity="0.15" />
            <text x="30" y={204 - v} textAnchor="end" fontSize="10" fill="currentColor">
              {v}
            </text>
          </g>
        ))}
        {growth.map((g, i) => {
          const h = (Math.min(g.users, max) / max) * 200;
          return (
            <g key={g.date}>
              <rect x={44 + i * 37} y={200 - h} width="26" height={h} rx="3" fill="var(--brand)" />
              <text x={57 + i * 37} y="218" textAnchor="middle" fontSize="9" fill="currentColor">
                {DAY.format(new Date(g.date))}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

function Dashboard() {
  const stats = useQuery({ queryKey: ["admin", "stats"], queryFn: adminApi.stats });
  return (
    <Loadable query={stats} label="stats">
      {(s) => (
        <div className="stack">
          <div className="stat-grid">
            {(["users", "listings", "conversations", "messages"] as const).map((k) => (
              <div key={k} className="panel stat">
                <span className="muted">{k[0]!.toUpperCase() + k.slice(1)}</span>
                <strong>{s[k].toLocaleString("en-US")}</strong>
              </div>
            ))}
          </div>
          <div className="panel">
            <GrowthChart growth={s.user_growth} />
          </div>
          <AuditLog />
        </div>
      )}
    </Loadable>
  );
}

/** Who did what, when: the newest admin actions from the audit table. */
function AuditLog() {
  const audit = useQuery({ queryKey: ["admin", "audit"], queryFn: adminApi.audit });
  return (
    <section className="panel stack-sm" aria-labelledby="audit-heading">
      <h2 id="audit-heading">Recent admin activity</h2>
      <Loadable query={audit} label="activity">
        {(rows) =>
          rows.length === 0 ? (
            <p className="muted">No admin actions yet.</p>
          ) : (
            <ol className="audit-log">
              {rows.slice(0, 20).map((r) => (
                <li key={r.id}>
                  <time className="muted">{NY_TIME.format(new Date(r.created_at))}</time> <strong>{r.action.replace(/_/g, " ")}</strong>
                  {r.table && <span className="muted"> · {r.table}</span>}
                  {r.item_id && <span className="mono"> {r.item_id}</span>}
                  <span className="muted"> · {r.actor}</span>
                </li>
              ))}
            </ol>
          )
        }
      </Loadable>
    </section>
  );
}

const STATUS_WORD: Record<string, string> = { verified: "verify", unverified: "unverify", pending: "set to pending" };

function UsersList() {
  const users = useQuery({ queryKey: ["admin", "users"], queryFn: adminApi.users });
  const [search, setSearch] = useState("");
  const toast = useToast();
  const queryClient = useQueryClient();
  async function setStatus(id: string, status: string) {
    const word = STATUS_WORD[status]!;
    if (!window.confirm(`Are you sure you want to ${word} this user?`)) return;
    try {
      await adminApi.setUserStatus(id, status);
      toast.show(`User ${word === "set to pending" ? "set to pending" : `${word}ed`} successfully!`, { kind: "success" });
      void queryClient.invalidateQueries({ queryKey: ["admin"] });
    } catch (err) {
      toast.show(`Failed to ${word} user: ${errorMessage(err)}`, { kind: "error", durationMs: 4000 });
    }
  }
  return (
    <Loadable query={users} label="users">
      {(all) => {
        const q = search.trim().toLowerCase();
        const shown = q ? all.filter((u) => `${u.first_name} ${u.last_name} ${u.email} ${u.id}`.toLowerCase().includes(q)) : all;
        return (
          <div className="stack">
            <div className="admin-toolbar">
              <span className="muted">{all.length} users</span>
              <div className="search-row">
                <input type="search" aria-label="Search users" placeholder="Search by name, email, or ID..." value={search} onChange={(e) => setSearch(e.target.value)} />
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
                      <span className="muted">Joined {new Date(u.created_at).toLocaleDateString("en-US")}</span>
                    </div>
                    <label className="field">
                      <span className="field-label">Status</span>
                      <select
                        value={["verified", "pending"].includes(u.id_verification_status) ? u.id_verification_status : "unverified"}
                        onChange={(e) => setStatus(u.id, e.target.value)}
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

function ReasonDialog({ title, open, onClose, onSubmit }: { title: string; open: boolean; onClose: () => void; onSubmit: (reason: string) => void }) {
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog open={open} onClose={onClose} size="sm" title={title}>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          if (!reason.trim()) return setError("Please provide a reason for rejection");
          onSubmit(reason.trim());
          setReason("");
        }}
      >
        <TextAreaField label="Reason" rows={3} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} error={error} data-autofocus />
        <button type="submit" className="button button-danger">
          Reject
        </button>
      </form>
    </Dialog>
  );
}

function VerificationReview({ status }: { status: "pending" | "unverified" }) {
  const items = useQuery({ queryKey: ["admin", "verifications", status], queryFn: () => adminApi.verifications(status) });
  const toast = useToast();
  const queryClient = useQueryClient();
  const [rejecting, setRejecting] = useState<ReviewItem | null>(null);
  const [viewing, setViewing] = useState<ReviewItem | null>(null);
  async function review(item: ReviewItem, decision: "approved" | "rejected", reason?: string) {
    try {
      await adminApi.reviewVerification(item.id, decision, reason);
      toast.show(decision === "approved" ? "Verification approved" : "Verification rejected", { kind: "success" });
      void queryClient.invalidateQueries({ queryKey: ["admin"] });
    } catch (err) {
      toast.show(`${decision === "approved" ? "Failed to approve verification" : "Failed to reject verification"}: ${errorMessage(err)}`, { kind: "error", durationMs: 4000 });
    }
  }
  return (
    <>
    <Loadable query={items} label={status === "pending" ? "pending verifications" : "unverified users"}>
      {(list) =>
        list.length === 0 ? (
          <p className="muted">{status === "pending" ? "No pending verification requests." : "Every user has submitted a document."}</p>
        ) : (
          <ul className="admin-cards">
            {list.map((item) => (
              <li key={item.id ?? item.user_id} className="panel admin-user">
                <div className="admin-user-text">
                  <strong>{item.user_name || "Unknown User"}</strong>
                  <span className="muted">{item.user_email || "No email"}</span>
                  {item.id && (
                    <span className="muted">
                      {item.document_type.replace("_", " ")} · submitted {NY_TIME.format(new Date(item.submitted_at))}
                    </span>
                  )}
                  {item.notes && <span>“{item.notes}”</span>}
                </div>
                {status === "pending" && (
                  <div className="row row-start">
                    <button type="button" className="button button-ghost" onClick={() => setViewing(item)}>
                      View document
                    </button>
                    <button type="button" className="button button-primary" onClick={() => review(item, "approved")}>
                      Approve
                    </button>
                    <button type="button" className="button button-ghost danger-text" onClick={() => setRejecting(item)}>
                      Reject
                    </button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )
      }
    </Loadable>
      <ReasonDialog
        title="Reject verification"
        open={rejecting !== null}
        onClose={() => setRejecting(null)}
        onSubmit={(reason) => {
          if (rejecting) void review(rejecting, "rejected", reason);
          setRejecting(null);
        }}
      />
      <Dialog open={viewing !== null} onClose={() => setViewing(null)} size="lg" title="Identity document">
        {viewing && <DocumentView request={viewing} />}
      </Dialog>
    </>
  );
}

/**
 * A private identity document: fetched with the admin's bearer header (never a token in a URL),
 * shown from a blob: URL when it is an image, offered as a download when it is a PDF.
 */
function DocumentView({ request }: { request: ReviewItem }) {
  const file = useQuery({ queryKey: ["admin", "document", request.id], queryFn: () => adminApi.document(request.id), staleTime: Infinity, gcTime: 0 });
  const url = useMemo(() => (file.data ? URL.createObjectURL(file.data) : null), [file.data]);
  useEffect(() => () => {
    if (url) URL.revokeObjectURL(url);
  }, [url]);
  if (file.isPending) return <PageLoadingInline label="Loading document" />;
  if (file.isError || !url) return <p role="alert">{errorMessage(file.error, "Failed to load the document")}</p>;
  const isImage = file.data.type.startsWith("image/");
  return (
    <div className="stack">
      {isImage ? (
        <img className="document-view" src={url} alt={`${request.document_type} of ${request.user_name}`} />
      ) : (
        <p>This document is a PDF. Download it to review it.</p>
      )}
      <a href={url} download={`identity-document-${request.id}`} className="button button-ghost">
        Download the document
      </a>
    </div>
  );
}

function ListingTile({ listing, children }: { listing: AdminListing; children: ReactNode }) {
  return (
    <li className="panel admin-tile">
      <img src={listing.thumbnails[0] ?? PLACEHOLDER_IMAGE} alt="" />
      <div className="admin-tile-text">
        <span className={`badge badge-${listing.verification_status}`}>{listing.verification_status}</span>
        <strong>{listing.title}</strong>
        <span>{formatRent(listing.price)}/month</span>
        <span className="muted">
          {listing.location} · {listing.university_abbreviation}
        </span>
        {listing.promotion_end && <span className="muted">Promoted until {NY_TIME.format(new Date(listing.promotion_end))}</span>}
      </div>
      <div className="row row-start">{children}</div>
    </li>
  );
}

function ListingsTab({ which }: { which: "all" | "pending" | "promoted" }) {
  const listings = useQuery({ queryKey: ["admin", "listings", which], queryFn: () => adminApi.listings(which) });
  const toast = useToast();
  const queryClient = useQueryClient();
  const [details, setDetails] = useState<AdminListing | null>(null);
  const [rejecting, setRejecting] = useState<AdminListing | null>(null);
  const [deleting, setDeleting] = useState<AdminListing | null>(null);
  const [editing, setEditing] = useState<AdminListing | null>(null);
  const [confirmText, setConfirmText] = useState("");
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["admin"] });
  async function act(run: () => Promise<unknown>, success: string, failure: string) {
    try {
      await run();
      toast.show(success, { kind: "success" });
      void refresh();
    } catch (err) {
      toast.show(`${failure}: ${errorMessage(err)}`, { kind: "error", durationMs: 4000 });
    }
  }
  const approve = (l: AdminListing) => act(() => adminApi.reviewListing(l.id, "approved"), "Listing approved successfully!", "Failed to approve listing");
  return (
    <div className="stack">
      {which === "pending" && (
        <div className="admin-toolbar">
          <button
            type="button"
            className="button button-primary"
            onClick={() => {
              if (!window.confirm("Approve every pending listing?")) return;
              void act(
                async () => {
                  const r = await adminApi.verifyAll();
                  toast.show(`Successfully verified ${r.verified_count} out of ${r.total_listings} listings!`, { kind: "success" });
                },
                "Done",
                "Failed to verify all listings",
              );
            }}
          >
            Verify All Existing Listings
          </button>
        </div>
      )}
      {which === "promoted" && (
        <div className="admin-toolbar">
          <button
            type="button"
            className="button button-ghost"
            onClick={() =>
              act(
                async () => {
                  const r = await adminApi.cleanup();
                  toast.show(`Cleanup completed! ${r.expired_count} expired admin promotions removed.`, { kind: "success" });
                },
                "Done",
                "Failed to cleanup expired promotions",
              )
            }
          >
            Cleanup Expired Promotions
          </button>
        </div>
      )}
      <Loadable query={listings} label={which === "all" ? "listings" : `${which} listings`}>
        {(list) =>
          list.length === 0 ? (
            <p className="muted">No listings here.</p>
          ) : (
            <ul className="admin-tiles">
              {list.map((l) => (
                <ListingTile key={l.id} listing={l}>
                  {which === "all" && (
                    <>
                      <a className="button button-ghost" href={paths.listing(l.id)} target="_blank" rel="noopener noreferrer">
                        View
                      </a>
                      <button type="button" className="button button-ghost" onClick={() => setEditing(l)}>
                        Edit
                      </button>
                      {!l.promoted && (
                        <Tooltip content={l.verification_status === "approved" ? "Promote this listing for 7 days" : "Only approved listings can be promoted"}>
                          <button
                            type="button"
                            className="button button-ghost"
                            disabled={l.verification_status !== "approved"}
                            onClick={() => act(() => adminApi.promote(l.id), "Listing promoted for 7 days", "Failed to promote listing")}
                          >
                            Promote
                          </button>
                        </Tooltip>
                      )}
                      <button type="button" className="button button-ghost danger-text" onClick={() => setDeleting(l)}>
                        Delete
                      </button>
                    </>
                  )}
                  {which === "pending" && (
                    <>
                      <button type="button" className="button button-primary" onClick={() => approve(l)}>
                        Approve
                      </button>
                      <button type="button" className="button button-ghost danger-text" onClick={() => setRejecting(l)}>
                        Reject
                      </button>
                      <button type="button" className="button button-ghost" onClick={() => setDetails(l)}>
                        View Details
                      </button>
                    </>
                  )}
                  {which === "promoted" && (
                    <button type="button" className="button button-ghost" onClick={() => act(() => adminApi.unpromote(l.id), "Listing unpromoted", "Failed to unpromote listing")}>
                      Unpromote
                    </button>
                  )}
                </ListingTile>
              ))}
            </ul>
          )
        }
      </Loadable>
      <Dialog
        open={details !== null}
        onClose={() => setDetails(null)}
        size="lg"
        title={details?.title ?? ""}
        footer={
          details && (
            <>
              <button type="button" className="button button-primary" onClick={() => (approve(details), setDetails(null))}>
                Approve
              </button>
              <button type="button" className="button button-ghost danger-text" onClick={() => (setRejecting(details), setDetails(null))}>
                Reject
              </button>
              <button type="button" className="button button-ghost" onClick={() => setDetails(null)}>
                Close
              </button>
            </>
          )
        }
      >
        {details && (
          <dl className="details">
            {[
              ["Price", `${formatRent(details.price)}/month`],
              ["Address", details.address],
              ["Unit type", details.unit_type],
              ["Lease term", details.lease_term],
              ["Status", `${details.verification_status} · ${details.status}`],
              ["User ID", details.user_id],
              ["Created", NY_TIME.format(new Date(details.created_at))],
            ].map(([k, v]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd>{v}</dd>
              </div>
            ))}
            <div className="full-row">
              <dt>Description</dt>
              <dd className="prewrap">{details.description}</dd>
            </div>
            <div className="full-row admin-images">
              {details.pictures.map((p) => (
                <img key={p} src={p} alt="" />
              ))}
            </div>
          </dl>
        )}
      </Dialog>
      {editing && (
        <EditListingDialog
          listing={editing}
          onClose={() => setEditing(null)}
          onSave={(edit) => {
            const l = editing;
            setEditing(null);
            void act(() => adminApi.editListing(l.id, edit), "Listing updated", "Failed to update listing");
          }}
        />
      )}
      <ReasonDialog
        title="Reject Listing"
        open={rejecting !== null}
        onClose={() => setRejecting(null)}
        onSubmit={(reason) => {
          const l = rejecting;
          setRejecting(null);
          if (l) void act(() => adminApi.reviewListing(l.id, "rejected", reason), "Listing rejected successfully!", "Failed to reject listing");
        }}
      />
      <Dialog
        open={deleting !== null}
        alert
        onClose={() => (setDeleting(null), setConfirmText(""))}
        size="sm"
        title="Delete this listing?"
        description="This cannot be undone. Type CONFIRM to delete it and its photos."
        footer={
          <button
            type="button"
            className="button button-danger"
            onClick={() => {
              if (confirmText !== "CONFIRM") return window.alert('Please type "CONFIRM" to proceed with deletion');
              const l = deleting!;
              setDeleting(null);
              setConfirmText("");
              void act(() => adminApi.deleteItem("listings", l.id), "Item deleted successfully", "Failed to delete item");
            }}
          >
            Delete
          </button>
        }
      >
        <TextField label="Type CONFIRM" value={confirmText} onChange={(e) => setConfirmText(e.target.value)} autoComplete="off" data-autofocus />
      </Dialog>
    </div>
  );
}

function EditListingDialog({
  listing,
  onClose,
  onSave,
}: {
  listing: AdminListing;
  onClose: () => void;
  onSave: (edit: { title: string; description: string; monthly_rent: number; moderation_status: "visible" | "hidden" }) => void;
}) {
  const [title, setTitle] = useState(listing.title);
  const [description, setDescription] = useState(listing.description);
  const [rent, setRent] = useState(String(listing.monthly_rent));
  const [visibility, setVisibility] = useState(listing.moderation_status);
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog open onClose={onClose} title="Edit listing" description="Corrections are saved as they are and written to the audit log.">
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          if (!title.trim() || title.trim().length > LIMITS.titleMaxApi) return setError(`Title must be 1-${LIMITS.titleMaxApi} characters`);
          if (!description.trim()) return setError("Description is required");
          if (!(Number(rent) >= 1)) return setError("Monthly rent must be at least 1");
          onSave({ title: title.trim(), description: description.trim(), monthly_rent: Math.round(Number(rent)), moderation_status: visibility });
        }}
      >
        <TextField label="Title" value={title} onChange={(e) => setTitle(e.target.value)} />
        <TextAreaField label="Description" rows={4} value={description} onChange={(e) => setDescription(e.target.value)} />
        <TextField label="Monthly rent ($)" type="number" min={1} value={rent} onChange={(e) => setRent(e.target.value)} />
        <label className="field">
          <span className="field-label">Visibility (staff only; the owner cannot undo it)</span>
          <select value={visibility} onChange={(e) => setVisibility(e.target.value as "visible" | "hidden")}>
            <option value="visible">Visible</option>
            <option value="hidden">Hidden by staff</option>
          </select>
        </label>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button button-primary">
          Save
        </button>
      </form>
    </Dialog>
  );
}

function FeedbackTab({ archived }: { archived: boolean }) {
  const feedback = useQuery({ queryKey: ["admin", "feedback", archived], queryFn: () => adminApi.feedback(archived) });
  const toast = useToast();
  const queryClient = useQueryClient();
  return (
    <Loadable query={feedback} label={archived ? "archived feedback" : "feedback"}>
      {(list) =>
        list.length === 0 ? (
          <p className="muted">{archived ? "No archived feedback found." : "No feedback submissions have been received yet."}</p>
        ) : (
          <ul className="admin-cards">
            {list.map((f) => (
              <li key={f.id} className="panel stack-sm">
                <div className="section-head">
                  <strong>{f.email}</strong>
                  <time className="muted" dateTime={f.timestamp}>
                    {NY_TIME.format(new Date(f.timestamp))}
                  </time>
                </div>
                <p className="prewrap">{f.message}</p>
                {!archived && (
                  <button
                    type="button"
                    className="button button-ghost"
                    onClick={async () => {
                      try {
                        await adminApi.archiveFeedback(f.id);
                        void queryClient.invalidateQueries({ queryKey: ["admin", "feedback"] });
                      } catch (err) {
                        toast.show(`Failed to archive feedback: ${errorMessage(err)}`, { kind: "error", durationMs: 4000 });
                      }
                    }}
                  >
                    Archive
                  </button>
                )}
              </li>
            ))}
          </ul>
        )
      }
    </Loadable>
  );
}

function Section({ tabs, label }: { tabs: { id: string; label: string; content: ReactNode }[]; label: string }) {
  const [value, setValue] = useState(tabs[0]!.id);
  return <Tabs label={label} value={value} onChange={setValue} tabs={tabs} />;
}

export function AdminPanel() {
  useAdminChrome();
  const token = useAdminToken();
  // Keyed by the token: a new session starts on the Dashboard tab with fresh data.
  return token ? <AdminWorkspace key={token} /> : <LoginView />;
}

function AdminWorkspace() {
  const queryClient = useQueryClient();
  const [tab, setTab] = useState("dashboard");
  const [validated, setValidated] = useState(false);

  // A stored token is checked once against the tables endpoint and dropped if refused.
  useEffect(() => {
    adminApi
      .tables()
      .then(() => setValidated(true))
      .catch(() => adminSession.set(null));
  }, []);

  if (!validated) return <p className="muted admin-login">Checking your session…</p>;
  return (
    <main className="admin">
      <header className="admin-header">
        <h1 className="admin-title">CampusNest · Admin</h1>
        <div className="row">
          <a href={paths.home} className="button button-ghost">
            Public site
          </a>
          <button type="button" className="button button-ghost" onClick={() => queryClient.invalidateQueries({ queryKey: ["admin"] })}>
            Refresh
          </button>
          <button
            type="button"
            className="button button-ghost"
            onClick={() => {
              void adminApi.logout();
              queryClient.removeQueries({ queryKey: ["admin"] });
              adminSession.set(null);
            }}
          >
            Logout
          </button>
        </div>
      </header>
      <Tabs
        label="Admin sections"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: "dashboard", label: "Dashboard", content: <Dashboard /> },
          {
            id: "users",
            label: "Users",
            content: (
              <Section
                label="Users"
                tabs={[
                  { id: "all", label: "Users", content: <UsersList /> },
                  { id: "pending", label: "Pending", content: <VerificationReview status="pending" /> },
                  { id: "unverified", label: "Unverified", content: <VerificationReview status="unverified" /> },
                ]}
              />
            ),
          },
          {
            id: "listings",
            label: "Listings",
            content: (
              <Section
                label="Listings"
                tabs={[
                  { id: "all", label: "All", content: <ListingsTab which="all" /> },
                  { id: "pending", label: "Pending", content: <ListingsTab which="pending" /> },
                  { id: "promoted", label: "Promoted", content: <ListingsTab which="promoted" /> },
                ]}
              />
            ),
          },
          {
            id: "feedback",
            label: "Feedback",
            content: (
              <Section
                label="Feedback"
                tabs={[
                  { id: "active", label: "Feedback", content: <FeedbackTab archived={false} /> },
                  { id: "archived", label: "Archive", content: <FeedbackTab archived /> },
                ]}
              />
            ),
          },
        ]}
      />
    </main>
  );
}
