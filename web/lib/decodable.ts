/**
 * Whether picked files are images the browser can open: the listing form and ID verification refuse
 * a file that is not one (a text file named `.jpg`) when it is picked, before any preview.
 */
export const undecodableMessage = (name: string) =>
  `${name} could not be opened as an image. It may be damaged or in a format browsers can't read; please choose another photo.`;

async function canDecode(file: File): Promise<boolean> {
  try {
    if (typeof createImageBitmap === "function") {
      (await createImageBitmap(file)).close();
      return true;
    }
    const url = URL.createObjectURL(file);
    try {
      const image = new Image();
      image.src = url;
      await image.decode();
      return true;
    } finally {
      URL.revokeObjectURL(url);
    }
  } catch {
    return false;
  }
}

/** The first file that cannot be decoded, worded; null when every file is a readable image. */
export async function checkDecodable(files: File[]): Promise<string | null> {
  for (const file of files) if (!(await canDecode(file))) return undecodableMessage(file.name);
  return null;
}
