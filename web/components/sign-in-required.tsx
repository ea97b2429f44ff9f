import { Link } from "react-router-dom";
import { paths } from "../config/paths";
import { useSignInHere } from "../lib/sign-in-prompt";
import { PageFrame } from "./layout/page-frame";

/** What a signed-in page shows a visitor: why, Sign In (which comes back here), and Go to Home. */
export function SignInRequired({ title, message }: { title: string; message: string }) {
  const signInHere = useSignInHere();
  return (
    <PageFrame title={title} width="narrow">
      <section className="panel empty-state">
        <p>{message}</p>
        <div className="row">
          <button type="button" className="button button-primary" onClick={() => signInHere()}>
            Sign In
          </button>
          <Link to={paths.home} className="button button-ghost">
            Go to Home
          </Link>
        </div>
      </section>
    </PageFrame>
  );
}
