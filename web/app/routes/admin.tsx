import { AdminPanel } from "../../features/admin/components/admin-panel";

/** The hidden staff route: its own lazy chunk, which the public pages never download. */
export default function AdminRoute() {
  return <AdminPanel />;
}
