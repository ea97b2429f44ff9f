/**
 * No file-level import cycles in the app's source: a cycle ties folders together so that
 * neither can be read, tested or moved without the other (the rooms once pulled in D1 code this way).
 * The sources come in through Vite's glob as text, so the check needs no file system access.
 */
import { describe, expect, it } from "vitest";
import { findCycles, importGraph } from "./import-graph";

const sources = import.meta.glob(["/worker/**/*.{ts,tsx}", "/party/**/*.ts", "/web/**/*.{ts,tsx}", "!**/*.d.ts"], {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;
const projectSources = Object.fromEntries(Object.entries(sources).map(([path, text]) => [path.replace(/^\//, ""), text]));

describe("import cycles", () => {
  it("finds a cycle, a self-import and nothing in a tree", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c", "d"]],
      ["c", ["a"]],
      ["d", []],
      ["e", ["e"]],
      ["f", ["d"]],
    ]);
    expect(findCycles(graph)).toEqual([
      ["a", "b", "c", "a"],
      ["e", "e"],
    ]);
    expect(findCycles(new Map([["a", ["b"]], ["b", []]]))).toEqual([]);
  });

  it("resolves relative imports, aliases and type-only imports into edges", () => {
    const unresolved: string[] = [];
    const graph = importGraph(
      {
        "worker/contract/messages.ts": 'import type { Message } from "../../../party/protocol";',
        "party/protocol.ts": 'export { PARTIES } from "../worker/contract/messages";\nimport { z } from "zod";',
        "web/app/page.tsx": 'import { x } from "@contract/messages";\nimport ssr from "@web/ssr";\nconst lazy = () => import("../features/a");',
        "web/features/a/index.tsx": 'import { y } from "@party/protocol";\nimport { gone } from "./missing";',
      },
      unresolved,
    );
    expect(graph.get("web/app/page.tsx")).toEqual(["web/features/a/index.tsx", "worker/contract/messages.ts"]);
    expect(graph.get("web/features/a/index.tsx")).toEqual(["party/protocol.ts"]);
    expect(unresolved).toEqual(["web/features/a/index.tsx -> ./missing"]);
    expect(findCycles(graph)).toEqual([["party/protocol.ts", "worker/contract/messages.ts", "party/protocol.ts"]]);
  });

  it("the worker, the rooms and the SPA import no file that imports them back", () => {
    expect(Object.keys(projectSources).length).toBeGreaterThan(100);
    const unresolved: string[] = [];
    const cycles = findCycles(importGraph(projectSources, unresolved));
    expect(unresolved, "imports the cycle check could not resolve").toEqual([]);
    expect(cycles.map((cycle) => cycle.join(" -> "))).toEqual([]);
  });
});

describe("the rules stay light", () => {
  // The navbar and the listing card import policies and constants on the home page: if either reached
  // a module that imports zod (a contract file with schemas), zod's 25 KB would load with `/` (it did
  // once, when a rule took its texts from contract/messages.ts).
  it("policies.ts, constants.ts, browse-url.ts, messaging-rules.ts, waits.ts and parties.ts reach no module that imports zod", () => {
    const graph = importGraph(projectSources);
    const reached = new Set<string>();
    const visit = (file: string) => {
      if (reached.has(file)) return;
      reached.add(file);
      for (const next of graph.get(file) ?? []) visit(next);
    };
    visit("worker/contract/policies.ts");
    visit("worker/contract/constants.ts");
    visit("worker/contract/browse-url.ts");
    // Not on the home page, but in the listing and messages pages' first loads (waits.ts: the listing
    // page's review and reply times; parties.ts: a signed-in navbar's unread badge).
    visit("worker/contract/messaging-rules.ts");
    visit("worker/contract/waits.ts");
    visit("worker/contract/parties.ts");
    expect(reached.size).toBeGreaterThanOrEqual(6);
    const importsZod = (file: string) => /from\s+"(zod|\.\/zod)"/.test(projectSources[file] ?? "");
    expect([...reached].filter(importsZod)).toEqual([]);
    // The check can fail: a schema file is seen as importing zod.
    expect(importsZod("worker/contract/messages.ts")).toBe(true);
  });
});
