/**
 * The file-level import graph of the app's source (worker/, party/, web/) and the cycles in it, for
 * import-cycles.test.ts. Type-only imports count too: a cycle of types is still two folders that each
 * need the other to be read.
 */
import ts from "typescript";

/** Where the bundlers' aliases point (vite.config.ts, vitest.config.ts, tsconfig.web.json). */
const ALIASES: Record<string, string> = { "@contract/": "worker/contract/", "@party/": "party/" };
/** The built server renderer (docs/decisions/017): a build output, not a source file. */
const IGNORED = /^@web\//;
const EXTENSIONS = ["", ".ts", ".tsx", "/index.ts", "/index.tsx"];

function resolve(from: string, specifier: string, files: ReadonlySet<string>): string | null {
  if (IGNORED.test(specifier)) return null;
  let base: string | null = null;
  const alias = Object.keys(ALIASES).find((prefix) => specifier.startsWith(prefix));
  if (alias) base = ALIASES[alias] + specifier.slice(alias.length);
  else if (specifier.startsWith("./") || specifier.startsWith("../")) {
    const parts = from.split("/").slice(0, -1);
    for (const part of specifier.split("/")) {
      if (part === "..") parts.pop();
      else if (part !== ".") parts.push(part);
    }
    base = parts.join("/");
  }
  if (base === null) return null; // an npm package
  const bare = base.replace(/\?.*$/, "");
  return EXTENSIONS.map((ext) => bare + ext).find((candidate) => files.has(candidate)) ?? null;
}

/**
 * Each file (path relative to the project root, "/"-separated) -> the project files it imports
 * (static, type-only, re-exports and dynamic imports). `unresolved` collects relative or aliased
 * imports that name no file, so a resolver gap cannot hide an edge.
 */
export function importGraph(sources: Record<string, string>, unresolved: string[] = []): Map<string, string[]> {
  const files = new Set(Object.keys(sources));
  const graph = new Map<string, string[]>();
  for (const [file, text] of Object.entries(sources)) {
    const { importedFiles } = ts.preProcessFile(text, true, true);
    const targets = new Set<string>();
    for (const { fileName } of importedFiles) {
      const target = resolve(file, fileName, files);
      if (target) targets.add(target);
      else if (/^(\.\.?\/|@contract\/|@party\/)/.test(fileName) && !/\.(css|svg|png|json|txt)(\?|$)/.test(fileName)) unresolved.push(`${file} -> ${fileName}`);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/**
 * The graph's cycles: one per strongly connected component of more than one file (or a file that
 * imports itself), written a -> b -> ... -> a, starting at the component's first file by name.
 */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's strongly connected components, iterative (a long import chain must not overflow the stack).
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; edge: number }[] = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++]!;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = component.length === 1 && (graph.get(frame.node) ?? []).includes(frame.node);
        if (component.length > 1 || selfLoop) components.push(component.sort());
      }
    }
  }
  return components.map((component) => cycleThrough(graph, new Set(component), component[0]!)).sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** A shortest cycle from `start` back to itself inside one component (breadth first). */
function cycleThrough(graph: ReadonlyMap<string, readonly string[]>, component: ReadonlySet<string>, start: string): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of graph.get(node) ?? []) {
      if (!component.has(to)) continue;
      if (to === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        return [...path, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}
