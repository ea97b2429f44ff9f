import { Link } from "react-router-dom";
import { paths } from "../config/paths";
import { isOffline, OFFLINE_NOT_SAVED } from "../lib/online";

/**
 * Shown when a route fails to load or render (for example a chunk lost after a deploy). Offline, the
 * page's code was never saved on this device: it says so (docs/decisions/042).
 */
export function RouteError() {
  const offline = isOffline();
  return (
    <div className="page container page-narrow">
      <section className="panel empty-state" role="alert">
        <h1>{offline ? "You're offline" : "Something went wrong"}</h1>
        <p>{offline ? OFFLINE_NOT_SAVED : "Something went wrong. Please reload the page."}</p>
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
