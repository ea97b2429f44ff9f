import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { Tabs } from "../../../components/ui/tabs";
import { paths } from "../../../config/paths";
import { adminApi, adminSession, useAdminToken } from "../api/admin-api";
import { adminKeys } from "../api/admin-queries";
import { DashboardTab } from "./dashboard-tab";
import { DealsTab } from "./deals-tab";
import { FailedJobsTab } from "./failed-jobs-tab";
import { FeedbackTab } from "./feedback-tab";
import { ListingsTab } from "./listings-tab";
import { staffTimeZoneNote } from "../lib/format";
import { LoginView } from "./login-view";
import { ReportsTab } from "./reports-tab";
import { ReviewsTab } from "./reviews-tab";
import { SafetyTab } from "./safety-tab";
import { UsersTab } from "./users-tab";
import { VerificationReview } from "./verification-review";

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

/** A section's own tabs; the one shown is kept by the workspace, so the dashboard's queues can open it. */
function Section({ tabs, label, value, onChange }: { tabs: { id: string; label: string; content: ReactNode }[]; label: string; value: string | undefined; onChange: (id: string) => void }) {
  return <Tabs label={label} value={value ?? tabs[0]!.id} onChange={onChange} tabs={tabs} />;
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
  // Each section's sub-tab, by the section's label.
  const [subTabs, setSubTabs] = useState<Record<string, string>>({});
  const section = (label: string) => ({ label, value: subTabs[label], onChange: (id: string) => setSubTabs((s) => ({ ...s, [label]: id })) });
  // A queue opened from the dashboard: its tab (the sub-tab, if any) takes the focus, which was on the
  // dashboard's button that is now hidden.
  const focusTabIn = useRef<string | null>(null);
  function openQueue(id: string, sub?: { section: string; id: string }) {
    if (sub) setSubTabs((s) => ({ ...s, [sub.section]: sub.id }));
    setTab(id);
    focusTabIn.current = sub?.section ?? "Admin sections";
  }
  useEffect(() => {
    if (!focusTabIn.current) return;
    document.querySelector<HTMLElement>(`[role="tablist"][aria-label="${focusTabIn.current}"] [aria-selected="true"]`)?.focus();
    focusTabIn.current = null;
  });
  const [validated, setValidated] = useState(false);
  const [userSearch, setUserSearch] = useState("");
  const [focusUserSearch, setFocusUserSearch] = useState(false);
  /** Opens a user's card from elsewhere (a listing's lister, a flagged conversation's participant): the Users tab, searched by their id. */
  function showUser(userId: string) {
    setUserSearch(userId);
    setFocusUserSearch(true);
    setTab("users");
  }
  const searchFocused = useCallback(() => setFocusUserSearch(false), []);

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
        <div>
          <h1 className="admin-title">CampusNest · Admin</h1>
          <p className="muted admin-zone-note">{staffTimeZoneNote()}</p>
        </div>
        <div className="row">
          <a href={paths.home} className="button button-ghost">
            Public site
          </a>
          <button type="button" className="button button-ghost" onClick={() => queryClient.invalidateQueries({ queryKey: adminKeys.all })}>
            Refresh
          </button>
          <button
            type="button"
            className="button button-ghost"
            onClick={() => {
              void adminApi.logout();
              queryClient.removeQueries({ queryKey: adminKeys.all });
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
          { id: "dashboard", label: "Dashboard", content: <DashboardTab onOpen={openQueue} /> },
          {
            id: "users",
            label: "Users",
            content: (
              <Section
                {...section("Users")}
                tabs={[
                  { id: "all", label: "Users", content: <UsersTab search={userSearch} onSearchChange={setUserSearch} focusSearch={focusUserSearch} onSearchFocused={searchFocused} /> },
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
                {...section("Listings")}
                tabs={[
                  { id: "all", label: "All", content: <ListingsTab which="all" onShowUser={showUser} /> },
                  { id: "pending", label: "Pending", content: <ListingsTab which="pending" onShowUser={showUser} /> },
                  { id: "promoted", label: "Promoted", content: <ListingsTab which="promoted" onShowUser={showUser} /> },
                ]}
              />
            ),
          },
          {
            id: "reports",
            label: "Reports",
            content: (
              <Section
                {...section("Reports")}
                tabs={[
                  { id: "open", label: "Open", content: <ReportsTab status="open" /> },
                  { id: "resolved", label: "Resolved", content: <ReportsTab status="resolved" /> },
                ]}
              />
            ),
          },
          { id: "safety", label: "Safety", content: <SafetyTab onShowUser={showUser} /> },
          {
            id: "reviews",
            label: "Reviews",
            content: (
              <Section
                {...section("Reviews")}
                tabs={[
                  { id: "queue", label: "Queue", content: <ReviewsTab status="queue" /> },
                  { id: "hidden", label: "Hidden", content: <ReviewsTab status="hidden" /> },
                ]}
              />
            ),
          },
          { id: "deals", label: "Deals", content: <DealsTab /> },
          { id: "failed-jobs", label: "Failed jobs", content: <FailedJobsTab /> },
          {
            id: "feedback",
            label: "Feedback",
            content: (
              <Section
                {...section("Feedback")}
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
