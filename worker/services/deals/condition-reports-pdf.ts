/**
 * The condition reports as a PDF, part of the deal's PDF bundle beside the signed agreement
 * (docs/decisions/040): each report's receipt time, every room's condition and note, each photo with the
 * time the server received it, and the lister's comment. Rendered on request from the stored reports,
 * which are read-only once sent; the photos stay in private evidence storage (their addresses are listed).
 */
import { PDFDocument, rgb } from "@cantoo/pdf-lib";
import { dealMoment } from "../../contract/deal-process";
import { shortDate } from "../../contract/deals";
import { phaseWords, type ConditionReport } from "../../contract/reviews";
import type { DealRow } from "../../db/queries/deals";
import { Writer, loadFont, plainFontkit } from "./pdf";

export async function conditionReportsPdf(env: Env, deal: DealRow, reports: ConditionReport[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(plainFontkit);
  const font = await doc.embedFont(await loadFont(env), { subset: true });
  doc.setTitle(`Condition reports: ${deal.listing_title}`);
  doc.setKeywords([`deal:${deal.id}`]);
  doc.setProducer("CampusNest");
  doc.setCreator("CampusNest");
  const w = new Writer(doc, font);
  const when = (iso: string) => `${dealMoment(iso, deal.time_zone)} (${iso} UTC)`;
  w.text(`CONDITION REPORTS: ${deal.listing_title}`, 13);
  w.text(`Deal ${deal.id}, stay ${shortDate(deal.move_in)} to ${shortDate(deal.move_out)}. Times are when CampusNest's server received each report and photo.`, 9);
  w.gap(14);
  if (!reports.length) w.text("No condition report was sent for this deal.");
  for (const report of reports) {
    w.text(`${phaseWords(report.phase).toUpperCase()} REPORT, received ${when(report.received_at)}`, 12);
    w.gap();
    for (const room of report.rooms) {
      w.text(`${room.name}: ${room.condition}`, 11, room.condition === "damaged" || room.condition === "missing" ? rgb(0.6, 0.1, 0.1) : undefined);
      if (room.note) w.text(room.note, 10);
      for (const photo of room.photos) w.text(`Photo received ${when(photo.received_at)}: ${photo.url}`, 8);
      w.gap();
    }
    w.text(report.comment ? `Lister's comment (${when(report.comment.created_at)}): ${report.comment.text}` : "The lister has not commented.", 10);
    w.gap(14);
  }
  return doc.save();
}
