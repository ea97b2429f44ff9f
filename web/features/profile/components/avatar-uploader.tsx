import { useRef, useState } from "react";
import { LIMITS, megabytes } from "@contract/limits";
import { Avatar } from "../../../components/ui/avatar";
import { ProgressBar } from "../../../components/ui/progress";
import { useToast } from "../../../components/ui/toast";
import { errorMessage } from "../../../lib/api-client";
import { useSession } from "../../../lib/session";
import { useUploadAvatar } from "../api/profile-api";

const MAX_RELOADS = 3;

/** Avatar with upload progress; a freshly uploaded image that fails to load is retried up to 3 times. */
export function AvatarUploader() {
  const { session } = useSession();
  const toast = useToast();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [invalid, setInvalid] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  const upload = useUploadAvatar();
  const user = session!.user;
  const error = invalid ?? (upload.error && errorMessage(upload.error, "Failed to update profile"));
  const src = user.avatar_url ? `${user.avatar_url}${reloads ? `?retry=${reloads}` : ""}` : null;

  function onFile(file: File | undefined) {
    setInvalid(null);
    upload.reset();
    if (!file) return;
    if (!file.type.startsWith("image/")) return setInvalid("Please select an image file");
    if (file.size >= LIMITS.avatarMaxBytes) return setInvalid(`File size must be less than ${megabytes(LIMITS.avatarMaxBytes)}`);
    setProgress(0);
    upload.mutate(
      { file, onProgress: setProgress },
      {
        onSuccess: () => {
          setReloads(0);
          toast.show("Profile photo updated", { kind: "success" });
        },
        onSettled: () => {
          setProgress(null);
          if (input.current) input.current.value = "";
        },
      },
    );
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
        <label className={`button button-ghost file-button${upload.isPending ? " is-disabled" : ""}`}>
          Change photo
          <input ref={input} type="file" accept="image/*" className="visually-hidden" onChange={(e) => onFile(e.target.files?.[0])} disabled={upload.isPending} />
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
