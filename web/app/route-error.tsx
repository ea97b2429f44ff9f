import { isRouteErrorResponse, Link, useRouteError } from "react-router-dom";
import { paths } from "../config/paths";

/** Shown when a route fails to load or render (for example a chunk lost after a deploy). */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : "Something went wrong.";
  return (
    <div className="page container page-narrow">
      <section className="panel empty-state" role="alert">
        <h1>Something went wrong</h1>
        <p>{message} Please reload the page.</p>
        <div className="row">
          <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
            Reload
          </button>
          <Link to={paths.home} className="button button-ghost">
            Go to Home
          </Link>
        </div>
      </section>
    </div>
  );
}
