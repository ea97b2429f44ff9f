import { Link } from "react-router-dom";
import { PageFrame } from "../../components/layout/page-frame";
import { paths } from "../../config/paths";

export default function NotFoundRoute() {
  return (
    <PageFrame title="Page not found" width="narrow">
      <section className="panel empty-state">
        <p className="empty-code" aria-hidden="true">
          404
        </p>
        <p>We couldn't find that page. It may have moved, or the link may be mistyped.</p>
        <Link to={paths.home} className="button button-primary">
          Browse listings
        </Link>
      </section>
    </PageFrame>
  );
}
