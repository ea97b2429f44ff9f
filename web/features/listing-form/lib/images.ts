/**
 * Browser-side photo preparation: the photo limits (docs/product-rules.md "Limits"), then each photo is scaled to fit
 * 1920x1080 as JPEG at 0.8 (which also drops its EXIF/GPS) plus a 480x320 card thumbnail.
 */
import { LIMITS, megabytes } from "@contract/limits";
import { checkDecodable, undecodableMessage } from "../../../lib/decodable";

export { checkDecodable };

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

/** The first problem with adding `files` to `existing` photos that their names and sizes show, or null. */
export function checkFiles(files: File[], existing: number, mobile = isMobile()): string | null {
  if (existing + files.length > LIMITS.photosPerListing) return MESSAGES.max;
  if (files.some((f) => f.size === 0)) return MESSAGES.empty;
  const heic = files.find(isHeic);
  if (heic) return FILE_MESSAGES.heic(heic.name);
  const badType = files.find((f) => !ALLOWED_TYPES.includes(f.type.toLowerCase()) || (mobile && !ALLOWED_EXTENSIONS.test(f.name)));
  if (badType) return FILE_MESSAGES.notImage(badType.name, mobile);
  if (files.some((f) => f.size >= LIMITS.imageMaxBytes)) return MESSAGES.tooBig;
  return null;
}

/** Whether this browser can decode the file: the same decoder `preparePhoto` uses at submit. */

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
