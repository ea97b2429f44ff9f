import { Link } from "react-router-dom";
import { NotAvailableYet, PageFrame } from "../../components/layout/page-frame";
import { paths } from "../../config/paths";
import { useSession } from "../../lib/session";
import { RequireSignedIn, RequireVisitor } from "../guards";

export type Access = "everyone" | "signed-in" | "visitors" | "create";

interface UpcomingPageProps {
  title: string;
  feature: string;
  access: Access;
}

/**
 * The frame of a route whose feature ships in a later release: the spec's access rules apply
 * now (signed-out redirects included); the page says plainly that the feature is not there yet.
 */
export function UpcomingPage({ title, feature, access }: UpcomingPageProps) {
  const page = (
    <PageFrame title={title}>
      <NotAvailableYet feature={feature} />
    </PageFrame>
  );
  if (access === "signed-in") return <RequireSignedIn>{page}</RequireSignedIn>;
  if (access === "visitors") return <RequireVisitor>{page}</RequireVisitor>;
  if (access === "create") return <CreateGate>{page}</CreateGate>;
  return page;
}

/** /create tells a visitor why they cannot be there instead of redirecting (spec, section 2). */
function CreateGate({ children }: { children: React.ReactNode }) {
  const { session } = useSession();
  if (session) return <>{children}</>;
  return (
    <PageFrame title="Create listing" width="narrow">
      <section className="panel empty-state" role="alert">
        <p>You must be logged in to create a listing. Please log in and try again.</p>
        <Link to={paths.home} className="button button-primary">
          Go to Home
        </Link>
      </section>
    </PageFrame>
  );
}
