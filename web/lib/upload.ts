/** Uploads (photos, identity documents, avatars): only the pages that upload load this. */
import { ApiError, buildUrl, NETWORK_ERROR_MESSAGE, renewedToken, toError } from "./api-client";
import { currentToken } from "./auth-store";

/**
 * POSTs JSON with upload progress (XMLHttpRequest: fetch reports none), with the same bearer token,
 * refresh-once-on-401 and error handling as apiRequest. `onProgress` gets 0-100.
 */
export async function uploadJson<T>(path: string, body: unknown, onProgress: (percent: number) => void): Promise<T> {
  const payload = JSON.stringify(body);
  const attempt = (token: string | null) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open("POST", buildUrl(path));
      xhr.setRequestHeader("Content-Type", "application/json");
      xhr.setRequestHeader("Accept", "application/json");
      if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
      };
      xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
      xhr.onerror = () => reject(new ApiError(0, NETWORK_ERROR_MESSAGE));
      xhr.ontimeout = () => reject(new ApiError(0, NETWORK_ERROR_MESSAGE));
      xhr.send(payload);
    });
  const token = await currentToken();
  let res = await attempt(token);
  if (res.status === 401 && token) {
    const fresh = await renewedToken(token);
    if (fresh) res = await attempt(fresh);
  }
  const response = new Response(res.text || null, { status: res.status });
  if (res.status < 200 || res.status >= 300) throw await toError(response);
  onProgress(100);
  return (await response.json()) as T;
}

/** Reads a File as a data URL (the upload routes take base64 JSON). */
export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("Could not read the file"));
    reader.readAsDataURL(file);
  });
}
