import { Link } from "react-router-dom";
import { Dialog } from "../../../components/ui/dialog";
import { paths } from "../../../config/paths";

interface SignInDialogProps {
  open: boolean;
  onClose: () => void;
}

/** The navbar's Sign In popup. Accounts ship in the next release; until then it says so. */
export function SignInDialog({ open, onClose }: SignInDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      size="sm"
      title="Sign in"
      description="Signing in is not available yet: accounts are being built right now."
      footer={
        <Link to={paths.support} className="button button-ghost" onClick={onClose}>
          Support
        </Link>
      }
    />
  );
}
