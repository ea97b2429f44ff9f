import type { ReactNode } from "react";
import { Navigate } from "react-router-dom";
import { paths } from "../config/paths";
import { useSession } from "../lib/session";

/** Signed-in pages: visitors are sent to the home page (spec route table). */
export function RequireSignedIn({ children }: { children: ReactNode }) {
  const { session } = useSession();
  return session ? <>{children}</> : <Navigate to={paths.home} replace />;
}

/** Visitor-only pages (sign up): signed-in users are sent to the home page. */
export function RequireVisitor({ children }: { children: ReactNode }) {
  const { session } = useSession();
  return session ? <Navigate to={paths.home} replace /> : <>{children}</>;
}
