import { Link } from "react-router-dom";
import { REVIEW_TIME } from "@contract/waits";
import { paths } from "../../config/paths";
import { Dialog } from "../ui/dialog";
import { ShieldIcon } from "../ui/icons";

/** Get Started's popup: what CampusNest is, and the way to sign up. Its own chunk, loaded when wanted (navbar.tsx). */
export function WelcomeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Welcome to CampusNest"
      description="The trusted student-housing platform: verified sublease listings from verified students."
      footer={
        <>
          <button type="button" className="button button-ghost" onClick={() => onClose()}>
            Browse listings
          </button>
          <Link to={paths.signup} className="button button-primary" onClick={() => onClose()}>
            Create an account
          </Link>
        </>
      }
    >
      <ul className="feature-list">
        <li>
          <ShieldIcon /> Every lister verifies their identity with a student ID or government document.
        </li>
        <li>
          <ShieldIcon /> Every listing is reviewed by our team before it goes live (typically {REVIEW_TIME}).
        </li>
        <li>
          <ShieldIcon /> Message owners safely inside CampusNest: never pay a deposit before you see the place.
        </li>
      </ul>
    </Dialog>
  );
}
