/**
 * The signed agreement as a PDF (docs/decisions/026): the agreement text (its headings bold), the signature
 * blocks and a certificate page listing every event by the names the agreement holds, with the text's
 * SHA-256, and "Page N of M" on every page. Made in the worker with @cantoo/pdf-lib (the maintained fork of
 * pdf-lib) and DejaVu Sans and Sans Bold (embedded, subset: accented names print), read from the static
 * assets (web/public/fonts, with their licence) once per isolate. The agreement text and the certificate
 * are also attached to the file as plain text, so anyone can re-hash exactly what was signed.
 *
 * Two hashes, labelled the same everywhere (docs/decisions/044): "Agreement text SHA-256" is what both
 * signed (the deal page shows it, and this file prints it); "PDF file SHA-256" is this file's own, which
 * it cannot print inside itself: the "signed" email and staff's deal give it.
 */
import { PDFDocument, rgb, type PDFFont, type PDFPage } from "@cantoo/pdf-lib";
import fontkit from "@cantoo/fontkit";
import type { AgreementRow, DealEventRow, DealRow } from "../../db/queries/deals";
import { HASH_LABELS } from "../../contract/deals";
import { legalNameOf } from "./agreement";

export const FONT_PATH = "/fonts/DejaVuSans.ttf";
export const BOLD_FONT_PATH = "/fonts/DejaVuSans-Bold.ttf";


const fontBytes = new Map<string, Promise<Uint8Array>>();

/** A font's bytes from the static assets (kept for the isolate's life; a failed read is tried again next time). */
export function loadFont(env: Env, path: string = FONT_PATH): Promise<Uint8Array> {
  let bytes = fontBytes.get(path);
  if (!bytes) {
    bytes = env.ASSETS.fetch(new Request(`https://assets.local${path}`)).then(async (res) => {
      if (!res.ok) throw new Error(`font ${res.status}`);
      return new Uint8Array(await res.arrayBuffer());
    });
    fontBytes.set(path, bytes);
    bytes.catch(() => fontBytes.delete(path));
  }
  return bytes;
}

/** An address shortened to its network for the PDF (IPv4 /24, IPv6 /48); staff see it whole in the API. */
export function networkOf(ip: string | null): string {
  if (!ip) return "unknown";
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(ip)) return `${ip.split(".").slice(0, 3).join(".")}.0/24`;
  if (ip.includes(":")) {
    const [head = "", tail = ""] = ip.split("::");
    const left = head ? head.split(":") : [];
    const right = tail ? tail.split(":") : [];
    const groups = ip.includes("::") ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right] : left;
    return `${groups.slice(0, 3).map((g) => (g || "0").toLowerCase().replace(/^0+(?=.)/, "")).join(":")}::/48`;
  }
  return "unknown";
}

/** A numbered section's title in the agreement text ("3. Term"): a short line, no sentence after it. */
export const isSectionTitle = (line: string) => /^\d{1,2}\. \S[^.]{0,80}$/.test(line);

export interface PdfInput {
  deal: DealRow;
  agreement: AgreementRow;
  events: DealEventRow[];
  renterName: Parameters<typeof legalNameOf>[0];
  listerName: Parameters<typeof legalNameOf>[0];
  /** A copy to read before both signed: marked as a draft on its first line and never stored. */
  draft?: boolean;
}

const PAGE = { width: 612, height: 792, margin: 56 };
const SIZE = 10;
const LEAD = 14;

type Fontkit = Parameters<PDFDocument["registerFontkit"]>[0];

/** The part of a fontkit font that layout touches. */
interface LayoutFont {
  glyphForCodePoint(codePoint: number): unknown;
  layout: (text: string) => { glyphs: unknown[]; positions: unknown[] };
}

/**
 * fontkit with plain layout: each code point (text NFC-normalized, so accented letters are one code
 * point) is its glyph from the font's cmap, without OpenType shaping. A contract needs no ligatures,
 * kerning or contextual forms, and shaping through DejaVu's tables was most of the PDF's CPU time
 * (733 ms in workerd with shaping, 133 ms with features off; test/bench/deal-pdf.mjs measures today's).
 */
export const plainFontkit = {
  create: async (data: Uint8Array, postscriptName?: string) => {
    const font = (await fontkit.create(data, postscriptName ?? "")) as unknown as LayoutFont;
    const glyphs = new Map<number, unknown>();
    const glyphOf = (codePoint: number) => {
      let glyph = glyphs.get(codePoint);
      if (glyph === undefined) glyphs.set(codePoint, (glyph = font.glyphForCodePoint(codePoint)));
      return glyph;
    };
    font.layout = (text) => ({ glyphs: Array.from(text.normalize("NFC"), (ch) => glyphOf(ch.codePointAt(0)!)), positions: [] });
    return font;
  },
} as unknown as Fontkit;

/** Each character's advance at size 1000, measured once per isolate and font (regular, bold): wrapping adds them up. */
const advancesOf = new Map<string, Map<string, number>>();
function widthOf(text: string, font: PDFFont, size: number): number {
  let advances = advancesOf.get(font.name);
  if (!advances) advancesOf.set(font.name, (advances = new Map()));
  let total = 0;
  for (const ch of text) {
    let w = advances.get(ch);
    if (w === undefined) {
      w = font.widthOfTextAtSize(ch, 1000);
      advances.set(ch, w);
    }
    total += w;
  }
  return (total * size) / 1000;
}

/** Lines of `text` that fit `width` at `size` (words wrapped; a word longer than a line is cut). */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const next = line ? `${line} ${word}` : word;
      if (widthOf(next, font, size) <= width) line = next;
      else {
        if (line) lines.push(line);
        let rest = word;
        while (widthOf(rest, font, size) > width) {
          let n = rest.length - 1;
          while (n > 1 && widthOf(rest.slice(0, n), font, size) > width) n--;
          lines.push(rest.slice(0, n));
          rest = rest.slice(n);
        }
        line = rest;
      }
    }
    lines.push(line);
  }
  return lines;
}

export class Writer {
  page!: PDFPage;
  y = 0;
  constructor(
    private doc: PDFDocument,
    private font: PDFFont,
    private bold: PDFFont = font,
  ) {
    this.newPage();
  }
  newPage() {
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - PAGE.margin;
  }
  text(text: string, size = SIZE, color = rgb(0.08, 0.09, 0.11), font = this.font) {
    for (const line of wrap(text, font, size, PAGE.width - 2 * PAGE.margin)) {
      if (this.y < PAGE.margin + LEAD) this.newPage();
      if (line) this.page.drawText(line, { x: PAGE.margin, y: this.y, size, font, color });
      this.y -= size + 4;
    }
  }
  /** A heading, in bold; never the last line of a page (it moves to the next with room for a line under it). */
  heading(text: string, size = 12) {
    if (this.y < PAGE.margin + LEAD + 2 * (size + 4)) this.newPage();
    this.text(text, size, undefined, this.bold);
  }
  /** "Page 2 of 3" at the foot of every page, once the content is laid out. */
  numberPages(size = 8) {
    const pages = this.doc.getPages();
    pages.forEach((page, i) => {
      const label = `Page ${i + 1} of ${pages.length}`;
      page.drawText(label, { x: (PAGE.width - widthOf(label, this.font, size)) / 2, y: PAGE.margin / 2, size, font: this.font, color: rgb(0.35, 0.37, 0.4) });
    });
  }
  gap(h = LEAD / 2) {
    this.y -= h;
  }
}

/**
 * A party by the name the agreement holds for them: the legal name (the account's, marked unverified,
 * before the ID review), or, once their account is deleted, the names kept on the deal (docs/decisions/041).
 */
export function partyNameOf(input: Pick<PdfInput, "deal" | "renterName" | "listerName">, role: "renter" | "lister"): string {
  const row = role === "renter" ? input.renterName : input.listerName;
  if (row) return legalNameOf(row);
  const kept = role === "renter" ? [input.deal.renter_first_name, input.deal.renter_last_name] : [input.deal.lister_first_name, input.deal.lister_last_name];
  return kept[0] ? kept.filter(Boolean).join(" ") : legalNameOf(null);
}

/** Who made an event, by name: "Zoë Ångström (Tenant)", the landlord by the name they were asked under, CampusNest. */
function actorOf(input: PdfInput, e: DealEventRow): string {
  if (e.actor_role === "renter") return `${partyNameOf(input, "renter")} (Subtenant)`;
  if (e.actor_role === "lister") return `${partyNameOf(input, "lister")} (Tenant)`;
  if (e.actor_role === "landlord") {
    const named = (() => {
      try {
        return (JSON.parse(e.details ?? "{}") as { landlord_name?: string }).landlord_name ?? null;
      } catch {
        return null;
      }
    })();
    return named ? `${named} (Landlord)` : "the Landlord";
  }
  return e.actor_role === "staff" ? "CampusNest staff" : "CampusNest";
}

/** The certificate's lines: every event by name, the text's hash, addresses by network. */
export function certificateLines(input: PdfInput): string[] {
  const { deal, agreement, events } = input;
  return [
    "CERTIFICATE OF SIGNATURES",
    `Deal: ${deal.id}`,
    `Agreement version ${agreement.version} (${agreement.template})`,
    `Tenant: ${partyNameOf(input, "lister")}. Subtenant: ${partyNameOf(input, "renter")}.`,
    `${HASH_LABELS.text}: ${agreement.sha256}`,
    `Time zone of the dates: ${deal.time_zone}. Times below are UTC.`,
    "",
    ...events.map(
      (e) =>
        `${e.at}  ${e.type}  by ${actorOf(input, e)}  from ${e.actor_role === "system" ? "CampusNest" : networkOf(e.ip)}${e.user_agent ? `  (${e.user_agent.slice(0, 80)})` : ""}${e.document_sha256 ? `  ${e.type === "pdf_made" ? HASH_LABELS.file : HASH_LABELS.text} ${e.document_sha256}` : ""}`,
    ),
    "",
    "Addresses are shortened to their network here; CampusNest keeps them whole for disputes.",
    `The ${HASH_LABELS.text} above is the fingerprint of the agreement's words, as the deal page shows it. This file's own fingerprint (${HASH_LABELS.file}) cannot be printed inside it: it is in the email sent when both signed.`,
  ];
}

export async function makeSignedPdf(env: Env, input: PdfInput): Promise<Uint8Array> {
  const { deal, agreement } = input;
  const doc = await PDFDocument.create();
  doc.registerFontkit(plainFontkit);
  const [regular, boldBytes] = await Promise.all([loadFont(env), loadFont(env, BOLD_FONT_PATH)]);
  const font = await doc.embedFont(regular, { subset: true });
  const bold = await doc.embedFont(boldBytes, { subset: true });
  const signedAt = new Date(deal.lister_signed_at && deal.renter_signed_at ? (deal.lister_signed_at > deal.renter_signed_at ? deal.lister_signed_at : deal.renter_signed_at) : deal.updated_at);
  doc.setTitle(`Sublease agreement: ${deal.listing_title}`);
  doc.setSubject(`agreement-sha256:${agreement.sha256}`);
  doc.setKeywords([`deal:${deal.id}`, `agreement-version:${agreement.version}`, `agreement-sha256:${agreement.sha256}`]);
  doc.setProducer("CampusNest");
  doc.setCreator("CampusNest");
  doc.setCreationDate(signedAt);
  doc.setModificationDate(signedAt);

  const w = new Writer(doc, font, bold);
  if (input.draft) {
    w.text("DRAFT: not signed by both parties yet. The signed agreement, with its certificate page, replaces this copy.", 11, rgb(0.6, 0.1, 0.1), bold);
    w.gap(LEAD);
  }
  // The text as signed, line by line; its title and numbered section titles ("3. Term") in bold.
  agreement.text.split("\n").forEach((line, i) => {
    if (i === 0) w.heading(line, 14);
    else if (isSectionTitle(line)) {
      w.gap(2);
      w.heading(line, 11);
    } else w.text(line);
  });
  w.gap(LEAD);
  w.heading("SIGNATURES");
  w.gap();
  const signedEvent = (role: string) => input.events.find((e) => e.type === "signed" && e.actor_role === role);
  for (const [label, role, name, at] of [
    ["Tenant", "lister", partyNameOf(input, "lister"), deal.lister_signed_at],
    ["Subtenant", "renter", partyNameOf(input, "renter"), deal.renter_signed_at],
  ] as const) {
    const typed = (() => {
      try {
        return (JSON.parse(signedEvent(role)?.details ?? "{}") as { typed_name?: string }).typed_name ?? "";
      } catch {
        return "";
      }
    })();
    w.text(`${label}: ${name}`, SIZE, undefined, bold);
    w.text(`Signed electronically as "${typed}" on ${at ?? "(not signed)"} (UTC), with the intent to sign, the electronic-records consent and a code sent to the party's email.`, 9);
    w.gap();
  }
  w.text(`${HASH_LABELS.text} (the text both signed, as the deal page shows it): ${agreement.sha256}`, 9);

  w.newPage();
  const [title, ...certificate] = certificateLines(input);
  w.heading(title!);
  for (const line of certificate) w.text(line, 8);
  w.numberPages();

  const encoder = new TextEncoder();
  await doc.attach(encoder.encode(agreement.text), "agreement.txt", { mimeType: "text/plain", description: `The agreement text; ${HASH_LABELS.text} ${agreement.sha256}`, creationDate: signedAt, modificationDate: signedAt });
  await doc.attach(encoder.encode(certificateLines(input).join("\n")), "certificate.txt", { mimeType: "text/plain", description: "Every event of the deal", creationDate: signedAt, modificationDate: signedAt });
  return doc.save();
}
