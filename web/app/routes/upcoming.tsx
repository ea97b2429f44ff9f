import { NotAvailableYet, PageFrame } from "../../components/layout/page-frame";
import { RequireSignedIn } from "../guards";

export type Access = "everyone" | "signed-in";

interface UpcomingPageProps {
  title: string;
  feature: string;
  access: Access;
}

/**
 * The frame of a route whose feature ships in a later release (promote, billing): the
 * product's access rules apply now; the page says plainly that the feature is not there yet.
 */
export function UpcomingPage({ title, feature, access }: UpcomingPageProps) {
  const page = (
    <PageFrame title={title}>
      <NotAvailableYet feature={feature} />
    </PageFrame>
  );
  return access === "signed-in" ? <RequireSignedIn visitorMessage={`Please log in to see ${title}.`}>{page}</RequireSignedIn> : page;
}
