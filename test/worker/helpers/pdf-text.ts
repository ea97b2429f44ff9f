/**
 * A PDF's text read back as a reader's viewer would: each page's runs of text with the font they are
 * drawn in (its base name, e.g. "DejaVuSans-Bold") and size, decoded through each font's ToUnicode map.
 * Enough for the PDFs the worker makes with @cantoo/pdf-lib (hex-coded glyph ids, `Tf` and `Tj`).
 */
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, type PDFObject } from "@cantoo/pdf-lib";

export interface PdfRun {
  text: string;
  /** The font's base name without its subset tag and number ("DejaVuSans", "DejaVuSans-Bold"). */
  font: string;
  size: number;
}

const streamBytes = (obj: PDFObject | undefined): Uint8Array => (obj instanceof PDFRawStream ? decodePDFRawStream(obj).decode() : new Uint8Array());
const latin1 = (bytes: Uint8Array) => new TextDecoder("latin1").decode(bytes);

/** The ToUnicode map of a font: glyph id (hex) to its text. */
function unicodeMap(cmap: string): Map<string, string> {
  const map = new Map<string, string>();
  const utf16 = (hex: string) => String.fromCharCode(...(hex.match(/.{4}/g) ?? []).map((h) => parseInt(h, 16)));
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
    for (const [, src, dst] of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) map.set(src!.toUpperCase(), utf16(dst!));
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g))
    for (const [, lo, hi, dst] of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g))
      for (let g = parseInt(lo!, 16), d = parseInt(dst!, 16); g <= parseInt(hi!, 16); g++, d++) map.set(g.toString(16).toUpperCase().padStart(lo!.length, "0"), String.fromCharCode(d));
  return map;
}

/** Every page's text runs, in drawing order. */
export async function pdfPages(bytes: Uint8Array): Promise<PdfRun[][]> {
  const doc = await PDFDocument.load(bytes);
  return doc.getPages().map((page) => {
    const fonts = new Map<string, { name: string; map: Map<string, string> }>();
    const fontDict = page.node.Resources()?.lookupMaybe(PDFName.of("Font"), PDFDict);
    for (const [key, ref] of fontDict?.entries() ?? []) {
      const font = doc.context.lookup(ref, PDFDict);
      const base = font.lookup(PDFName.of("BaseFont"), PDFName).decodeText().replace(/^[A-Z]{6}\+/, "").replace(/-\d+$/, "");
      fonts.set(key.decodeText(), { name: base, map: unicodeMap(latin1(streamBytes(font.lookup(PDFName.of("ToUnicode"))))) });
    }
    const contents = page.node.Contents();
    const parts = contents instanceof PDFArray ? contents.asArray().map((ref) => doc.context.lookup(ref)) : [contents];
    const ops = parts.map((part) => latin1(streamBytes(part))).join("\n");
    const runs: PdfRun[] = [];
    let current: { name: string; map: Map<string, string> } | undefined;
    let size = 0;
    for (const m of ops.matchAll(/\/(\S+)\s+([\d.]+)\s+Tf|<([0-9a-fA-F]*)>\s*Tj/g)) {
      if (m[1]) {
        current = fonts.get(m[1]);
        size = Number(m[2]);
      } else if (current) {
        const text = (m[3]!.toUpperCase().match(/.{4}/g) ?? []).map((g) => current!.map.get(g) ?? "\uFFFD").join("");
        runs.push({ text, font: current.name, size });
      }
    }
    return runs;
  });
}

/** A page's text, one run a line. */
export const pageText = (runs: PdfRun[]) => runs.map((r) => r.text).join("\n");
