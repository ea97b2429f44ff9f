/**
 * Every limit a person reads in the SPA comes from the contract (worker/contract/constants.ts and its
 * neighbours): a retyped "5MB" drifts from the 10 MB the worker enforces. This scans the text of web/
 * (string literals, template parts and JSX text; comments are not read by anyone on screen) for a
 * number written next to a unit of a limit, and fails on each one that is not built from a constant.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/** A number beside a unit a limit is stated in. */
const RETYPED = [
  /\b\d+(\.\d+)?\s?(MB|KB|GB|bytes?)\b/i,
  /\b\d+\s+(characters?|chars?|photos?|images?|files?|digits?|letters?)\b/i,
  /\b\d+-(digit|character) (code|number|limit)/i,
  /\b(at (least|most)|up to|maximum( of)?|minimum( of)?|less than|more than)\s+\d+/i,
  /\b\d+(-\d+)?\s*(minutes?|seconds?|hours?|days?|weeks?)\b/i,
  /\$\d+(\.\d\d)?\s*(\/|per\b)/i,
];

/** Numbers that are no limit of the product, each with its reason. */
const ALLOWED: Array<{ file: string; text: RegExp; why: string }> = [
  { file: "web/app/routes/terms.tsx", text: /at least 18\b/, why: "the legal age in the terms; no code enforces it" },
];

interface Hit {
  file: string;
  line: number;
  text: string;
}

/** Each piece of on-screen text of one source file that states a number beside a limit's unit. */
export function retypedNumbers(file: string, source: string): Hit[] {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, kind);
  const hits: Hit[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node) ||
      ts.isJsxText(node)
    ) {
      const text = node.text.replace(/\s+/g, " ").trim();
      if (RETYPED.some((r) => r.test(text)) && !ALLOWED.some((a) => a.file === file && a.text.test(text))) {
        hits.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart()).line + 1, text });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return hits;
}

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourcesUnder(path);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts") ? [path] : [];
  });
}

/**
 * A field's counter shows its limit: each `limit={...}` (and `isOverLimit(text, ...)`) of one source file
 * that is a number typed there, directly or through a local constant, rather than a contract constant.
 */
export function retypedFieldLimits(file: string, source: string): string[] {
  const localNumbers = new Set([...source.matchAll(/\bconst ([A-Za-z_$][\w$]*)\s*=\s*[\d_]+\s*;/g)].map((m) => m[1]!));
  const uses = [...source.matchAll(/\blimit=\{\s*([^}]+?)\s*\}/g), ...source.matchAll(/\bisOverLimit\([^,]+,\s*([^)]+?)\s*\)/g)];
  return uses.map((m) => m[1]!).filter((value) => /^[\d_]+$/.test(value) || localNumbers.has(value)).map((value) => `${file}: ${value}`);
}

describe("numbers on screen", () => {
  it("finds a retyped limit in text, and none in text built from the constants", () => {
    const file = "web/features/example/components/example.tsx";
    const retyped = [
      '<p className="field-hint">Up to 10 photos, maximum 5MB each.</p>',
      'const m = "Each image must be less than 10MB";',
      "const m = `We sent a 6-digit code to ${email}.`;",
      'const lead = "Review takes 24-48 hours.";',
      "const m = `Password must be at least 6 characters long`;",
      "<p>Promotions cost $5 per week.</p>",
    ];
    for (const source of retyped) expect(retypedNumbers(file, source), source).toHaveLength(1);
    const built = [
      "<p>Up to {LIMITS.photosPerListing} photos, maximum {megabytes(LIMITS.imageMaxBytes)} each.</p>",
      "const m = `We sent a ${EMAILED_CODE.length}-digit code to ${email}.`;",
      "const lead = `Review takes ${REVIEW_TIME}.`;",
      '// a comment: "at most 500 characters" is read by no one on screen',
      'const label = unit.replace(/^(\\d+)x(\\d+)$/, "$1 bed / $2 bath");',
      "<p>Photo {i + 1}</p>",
    ];
    for (const source of built) expect(retypedNumbers(file, source), source).toEqual([]);
  });

  it("web/ states no limit that is not built from the contract's constants", () => {
    const hits = sourcesUnder("web").flatMap((file) => retypedNumbers(file, readFileSync(file, "utf8")));
    expect(hits.map((h) => `${h.file}:${h.line}: ${h.text}`)).toEqual([]);
  });

  it("finds a field limit typed in the SPA, directly or through a local constant", () => {
    const file = "web/features/example/components/example.tsx";
    expect(retypedFieldLimits(file, "const NAME_MAX = 50;\n<TextField limit={NAME_MAX} />")).toEqual([`${file}: NAME_MAX`]);
    expect(retypedFieldLimits(file, "<TextAreaField limit={1000} />")).toEqual([`${file}: 1000`]);
    expect(retypedFieldLimits(file, "const NOTES_MAX = 1_000;\nif (isOverLimit(notes.trim(), NOTES_MAX)) return;")).toEqual([`${file}: NOTES_MAX`]);
    expect(retypedFieldLimits(file, "<TextField limit={LIMITS.nameMax} />\nisOverLimit(text, SAVED_SEARCH.nameMaxLength)")).toEqual([]);
  });

  it("web/ counts every field against a contract constant", () => {
    const hits = sourcesUnder("web").flatMap((file) => retypedFieldLimits(file, readFileSync(file, "utf8")));
    expect(hits).toEqual([]);
  });
});
