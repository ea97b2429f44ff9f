import { useNavigate } from "react-router-dom";
import { useToast } from "../../../components/ui/toast";
import { paths } from "../../../config/paths";
import { ApiError, errorMessage } from "../../../lib/api-client";
import { useSession } from "../../../lib/session";

const SESSION_EXPIRED = "Your session has expired. Please log in again.";

/** A failed profile write in the product's words (docs/product-rules.md "Wording"). */
export function profileErrorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.status === 401) return SESSION_EXPIRED;
  if (err instanceof ApiError && err.isNetworkError) return "Network error occurred.";
  return errorMessage(err, fallback);
}

/** For a write's onError: a 401 ends the session, goes home and says so. */
export function useSessionExpiry() {
  const { signOut } = useSession();
  const navigate = useNavigate();
  const toast = useToast();
  return (err: unknown) => {
    if (!(err instanceof ApiError && err.status === 401)) return;
    signOut();
    navigate(paths.home);
    toast.show(SESSION_EXPIRED, { kind: "error", durationMs: 4000 });
  };
}
