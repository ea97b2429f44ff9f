/**
 * Uploads (photos, identity documents, avatars): only the pages that upload load this. Photos, for the
 * listing form and a deal's problem report: the photo limits (docs/product-rules.md "Limits"), then each
 * photo is scaled to fit 1920x1080 as JPEG at 0.8 (which also drops its EXIF/GPS) plus a 480x320 card
 * thumbnail, and the upload with the product's retries. One module: the pages that upload load one file.
 */
import { LIMITS, megabytes } from "@contract/limits";
import type { UploadResponse } from "@contract/listings";
import { ApiError, buildUrl, NETWORK_ERROR_MESSAGE, renewedToken, toError } from "./api-client";
import { currentToken } from "./auth-store";
import { checkDecodable, undecodableMessage } from "./decodable";

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


export const ALLOWED_TYPES = ["image/jpeg", "image/png", "image/webp", "image/heic", "image/heif", "image/tiff", "image/bmp", "image/gif"];
const ALLOWED_EXTENSIONS = /\.(jpe?g|png|webp|heic|heif|tiff?|bmp|gif)$/i;

export const isMobile = () => /Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent);

export const MESSAGES = {
  atLeastOne: "Please upload at least one photo",
  max: `Maximum ${LIMITS.photosPerListing} photos allowed`,
  tooBig: `Each image must be less than ${megabytes(LIMITS.imageMaxBytes)}`,
  empty: "One or more files appear to be empty. Please select valid image files.",
  invalidMobile: "Please select valid image files. Supported formats: JPEG, PNG, WebP, HEIC, HEIF, TIFF, BMP, GIF",
  invalidDesktop: "Only JPEG, PNG, WebP, HEIC, HEIF, TIFF, and BMP images are allowed",
  processing: "Failed to process images. Please try again.",
} as const;

/** iPhones' default format: Chromium and Firefox cannot decode it, so it is refused when picked. */
const HEIC_TYPES = ["image/heic", "image/heif", "image/heic-sequence", "image/heif-sequence"];
const HEIC_EXTENSION = /\.(heic|heif)$/i;
export const isHeic = (file: File) => HEIC_TYPES.includes(file.type.toLowerCase()) || HEIC_EXTENSION.test(file.name);

/** Messages that name the refused file, so the student knows which one to replace. */
export const FILE_MESSAGES = {
  heic: (name: string) =>
    `${name} is a HEIC photo, which browsers can't read. On iPhone, choose Most Compatible in Settings > Camera > Formats, or send it as JPEG.`,
  notImage: (name: string, mobile: boolean) => `${name} is not an image. ${mobile ? MESSAGES.invalidMobile : MESSAGES.invalidDesktop}`,
  undecodable: undecodableMessage,
};

/** What is wrong with one picked photo that its name, type and size show, naming it; null when nothing is. */
export function fileProblem(file: File, mobile = isMobile()): string | null {
  if (file.size === 0) return `${file.name} is empty. Please select valid image files.`;
  if (isHeic(file)) return FILE_MESSAGES.heic(file.name);
  if (!ALLOWED_TYPES.includes(file.type.toLowerCase()) || (mobile && !ALLOWED_EXTENSIONS.test(file.name))) return FILE_MESSAGES.notImage(file.name, mobile);
  if (file.size >= LIMITS.imageMaxBytes) return `${file.name} is too large. ${MESSAGES.tooBig}`;
  return null;
}

/** "a.jpg", "a.jpg and b.jpg", "a.jpg, b.jpg and c.jpg". */
const namesOf = (files: File[]) => {
  const names = files.map((f) => f.name);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : (names[0] ?? "");
};

/**
 * Picked photos sorted, as the listing form and a problem report add them: every readable image that fits
 * under `max` (with the `existing` ones) is added; each refused file is named with what is wrong with it,
 * so choosing five files with one text file among them adds the four photos and says which file was not.
 * `problem` is null when all were added.
 */
export async function pickPhotos(files: File[], existing: number, { max = LIMITS.photosPerListing, mobile = isMobile() }: { max?: number; mobile?: boolean } = {}): Promise<{ added: File[]; problem: string | null }> {
  const problems: string[] = [];
  const readable: File[] = [];
  for (const file of files) {
    const problem = fileProblem(file, mobile) ?? (await checkDecodable([file]));
    if (problem) problems.push(problem);
    else readable.push(file);
  }
  const room = Math.max(0, max - existing);
  const added = readable.slice(0, room);
  const left = readable.slice(room);
  if (left.length) problems.push(`${max === LIMITS.photosPerListing ? MESSAGES.max : `Maximum ${max} photos allowed`}: ${namesOf(left)} ${left.length === 1 ? "was" : "were"} not added.`);
  if (!problems.length) return { added, problem: null };
  const count = added.length ? `Added ${added.length} of ${files.length} photos. ` : "";
  return { added, problem: `${count}${problems.join(" ")}` };
}

export function fitWithin(width: number, height: number, maxW: number, maxH: number) {
  const scale = Math.min(1, maxW / width, maxH / height);
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}

async function encode(bitmap: ImageBitmap, maxW: number, maxH: number, quality: number, cover = false): Promise<Blob> {
  const canvas = document.createElement("canvas");
  let sx = 0,
    sy = 0,
    sw = bitmap.width,
    sh = bitmap.height;
  let size = fitWithin(bitmap.width, bitmap.height, maxW, maxH);
  if (cover) {
    // Thumbnails are cropped to the card's 3:2 frame.
    const ratio = maxW / maxH;
    if (sw / sh > ratio) {
      sw = sh * ratio;
      sx = (bitmap.width - sw) / 2;
    } else {
      sh = sw / ratio;
      sy = (bitmap.height - sh) / 2;
    }
    size = { width: maxW, height: maxH };
  }
  canvas.width = size.width;
  canvas.height = size.height;
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error(MESSAGES.processing);
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, size.width, size.height);
  ctx.drawImage(bitmap, sx, sy, sw, sh, 0, 0, size.width, size.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error(MESSAGES.processing))), "image/jpeg", quality),
  );
}

export interface PreparedPhoto {
  name: string;
  full: Blob;
  thumb: Blob;
}

export async function preparePhoto(file: File): Promise<PreparedPhoto> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    throw new Error(MESSAGES.processing);
  }
  try {
    const [full, thumb] = await Promise.all([encode(bitmap, 1920, 1080, 0.8), encode(bitmap, 480, 320, 0.7, true)]);
    return { name: file.name.replace(/\.[^.]+$/, "") + ".jpg", full, thumb };
  } finally {
    bitmap.close();
  }
}

const RETRY_WAITS_MS = [2000, 4000];

/**
 * Where photos go: a listing's public photos, or a deal's private evidence (a problem, a statement;
 * docs/decisions/032), which keeps no card thumbnail.
 */
export type PhotoDestination = "listing" | "evidence";

/** Upload with the product's retries (docs/product-rules.md "Timings and sizes"): 3 attempts, waiting 2 s then 4 s, on network errors only. */
export async function uploadPhotos(
  photos: PreparedPhoto[],
  onProgress: (percent: number) => void,
  wait = (ms: number) => new Promise((r) => setTimeout(r, ms)),
  destination: PhotoDestination = "listing",
): Promise<UploadResponse> {
  const images = await Promise.all(
    photos.map(async (p) => ({
      filename: p.name,
      content_type: "image/jpeg",
      image_data: await readAsDataUrl(p.full),
      ...(destination === "listing" ? { thumbnail_data: await readAsDataUrl(p.thumb) } : {}),
    })),
  );
  const path = destination === "listing" ? "upload/multiple-base64" : "upload/evidence";
  for (let attempt = 0; ; attempt++) {
    try {
      return await uploadJson<UploadResponse>(path, { images }, onProgress);
    } catch (err) {
      if (!(err instanceof ApiError && err.isNetworkError) || attempt >= RETRY_WAITS_MS.length) throw err;
      await wait(RETRY_WAITS_MS[attempt]!);
    }
  }
}
