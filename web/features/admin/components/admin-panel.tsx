import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { Tabs } from "../../../components/ui/tabs";
import { paths } from "../../../config/paths";
import { adminApi, adminSession, useAdminToken } from "../api/admin-api";
import { adminKeys } from "../api/admin-queries";
import { DashboardTab } from "./dashboard-tab";
import { DealsTab } from "./deals-tab";
import { FeedbackTab } from "./feedback-tab";
import { ListingsTab } from "./listings-tab";
import { staffTimeZoneNote } from "../lib/format";
import { LoginView } from "./login-view";
import { ReportsTab } from "./reports-tab";
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
          { id: "dashboard", label: "Dashboard", content: <DashboardTab /> },
          {
            id: "users",
            label: "Users",
            content: (
              <Section
                label="Users"
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
                label="Listings"
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
                label="Reports"
                tabs={[
                  { id: "open", label: "Open", content: <ReportsTab status="open" /> },
                  { id: "resolved", label: "Resolved", content: <ReportsTab status="resolved" /> },
                ]}
              />
            ),
          },
          { id: "safety", label: "Safety", content: <SafetyTab onShowUser={showUser} /> },
          { id: "deals", label: "Deals", content: <DealsTab /> },
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
