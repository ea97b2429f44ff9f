import { useRef, useState } from "react";
import { LIMITS } from "@contract/constants";
import { Avatar } from "../../../components/ui/avatar";
import { ProgressBar } from "../../../components/ui/progress";
import { useToast } from "../../../components/ui/toast";
import { errorMessage, readAsDataUrl } from "../../../lib/api-client";
import { useSession } from "../../../lib/session";
import { uploadAvatar } from "../api/profile-api";

const MAX_RELOADS = 3;

/** Avatar with upload progress; a freshly uploaded image that fails to load is retried up to 3 times. */
export function AvatarUploader() {
  const { session, setUser } = useSession();
  const toast = useToast();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  const user = session!.user;
  const src = user.avatar_url ? `${user.avatar_url}${reloads ? `?retry=${reloads}` : ""}` : null;

  async function onFile(file: File | undefined) {
    setError(null);
    if (!file) return;
    if (!file.type.startsWith("image/")) return setError("Please select an image file");
    if (file.size >= LIMITS.avatarMaxBytes) return setError("File size must be less than 10MB");
    setProgress(0);
    try {
      const { avatar_url } = await uploadAvatar(await readAsDataUrl(file), setProgress);
      setReloads(0);
      setUser({ ...user, avatar_url });
      toast.show("Profile photo updated", { kind: "success" });
    } catch (err) {
      setError(errorMessage(err, "Failed to update profile"));
    } finally {
      setProgress(null);
      if (input.current) input.current.value = "";
    }
  }

  return (
    <div className="avatar-uploader">
      <span
        onErrorCapture={() => {
          if (reloads < MAX_RELOADS) window.setTimeout(() => setReloads((n) => n + 1), 500 * (reloads + 1));
        }}
      >
        <Avatar key={src ?? "none"} src={src} firstName={user.first_name} lastName={user.last_name} size={88} />
      </span>
      <div className="stack-sm">
        <label className="button button-ghost">
          Change photo
          <input ref={input} type="file" accept="image/*" className="visually-hidden" onChange={(e) => onFile(e.target.files?.[0])} disabled={progress !== null} />
        </label>
        {progress !== null && <ProgressBar value={progress} label="Uploading photo" />}
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}
