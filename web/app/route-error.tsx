import { Link } from "react-router-dom";
import { paths } from "../config/paths";

/** Shown when a route fails to load or render (for example a chunk lost after a deploy). */
export function RouteError() {
  return (
    <div className="page container page-narrow">
      <section className="panel empty-state" role="alert">
        <h1>Something went wrong</h1>
        <p>Something went wrong. Please reload the page.</p>
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
