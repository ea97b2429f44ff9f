import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// The SPA's import boundary (docs/decisions/011). Flat config replaces a rule's options per block rather
// than merging them, so every SPA block that sets no-restricted-imports repeats this pattern.
const spaBoundary = {
  group: ["**/worker/**", "**/party/**", "!**/worker/contract/**", "!**/party/protocol"],
  message: "The SPA may import only worker/contract (@contract) and party/protocol (@party/protocol).",
};

// The worker's one seam with the SPA is the built server renderer, imported as `@web/ssr` (docs/decisions/017).
const noSpa = { group: ["**/web/**"], message: "The worker never imports the SPA (the server renderer comes in as @web/ssr)." };
const partyBoundary = "party/ imports only party/* and worker/contract.";
const noOtherRoute = "A route never imports another route: move what they share into a service.";
const noOtherFeature = "Features never import other features.";
/** Routes hold no SQL: a query lives in db/queries (or db/browse) and a route reaches it through a service. */
const noSqlInRoutes = "Routes hold no SQL: put the query in db/queries and call it from a service.";
const noQueryBuilder = { group: ["drizzle-orm", "drizzle-orm/*", "**/db/schema"], message: noSqlInRoutes };
const noServices = (who) => ({
  group: ["**/services/**", "**/services"],
  message: `${who} never imports services: services build on it, not the other way round.`,
});
/** Routes and middleware are the HTTP layer: what sits under it never reaches up into it. */
/**
 * One database handle per request (docs/decisions/016): middleware/d1-session.ts makes it (`c.var.db`), routes
 * pass it to services and queries. Only work outside a request makes its own with createDb.
 */
const oneDbPerRequest = (who) => ({
  group: ["**/db/client"],
  importNames: ["createDb"],
  message: `${who} never create a database handle: take the request's Db (c.var.db, set by middleware/d1-session.ts) and pass it on.`,
});
/** Every notice goes through services/notify (preferences, throttles, channels); only its email channel sends. */
const notifyOnly = {
  group: ["**/email", "./email"],
  importNames: ["sendEmail"],
  message: "Send notices with notify() from services/notify: it reads preferences and throttles once and fans out to every channel.",
};
const httpLayer = (who) => ({
  group: ["**/routes/**", "**/routes", "**/middleware/**", "**/middleware"],
  message: `${who} never import routes or middleware: shared code goes to services, db/queries or lib.`,
});

/**
 * Comments say why inside the repository: a decision record (docs/decisions/NNN), a product rule
 * (docs/product-rules.md) or the reason itself. A tracker's issue number or a section of a document the
 * repository does not hold tells the next reader nothing.
 */
const ISSUE_REF = /\bissues?\s+#?\d+/i;
const SPEC_SECTION = /\bspec\b[^.]{0,20}\bsection\s+\d+/i;
/**
 * Bounded statements (docs/decisions/038): D1 refuses more than 100 bound parameters, so a list the data
 * makes long never becomes `inArray(column, list)` or `IN (${...})`. Allowed: a literal list of constants,
 * a subquery (a `sql` template or a query builder), `boundedMarks(...)` (db/bounded.ts: checked against the
 * limit) and `inList(...)` (quoted constants, no parameters); a list goes through `inValues` (one JSON
 * parameter) instead.
 */
// sqlList (contract/deal-process.ts): a list of deal statuses as quoted constants, no parameters.
const BOUNDED_CALLS = new Set(["boundedMarks", "inList", "sqlList"]);
const QUERY_BUILDER = new Set(["select", "selectDistinct"]);
function isBoundedList(node, scope, seen = 0) {
  if (!node || seen > 5) return false;
  switch (node.type) {
    case "Literal":
      return true;
    case "ArrayExpression":
      return node.elements.every((e) => e && e.type === "Literal");
    // A constant SQL fragment by convention (`DEAL_GROUP_SQL.held`, `PUBLIC_LISTING_SQL`): quoted constants, no parameters.
    case "MemberExpression":
      return node.object.type === "Identifier" && /_SQL$/.test(node.object.name);
    case "TaggedTemplateExpression":
      return node.tag.type === "Identifier" && node.tag.name === "sql";
    case "Identifier": {
      let s = scope;
      while (s) {
        const variable = s.set.get(node.name);
        if (variable) {
          const def = variable.defs[0];
          return def?.type === "Variable" && def.parent.kind === "const" && isBoundedList(def.node.init, scope, seen + 1);
        }
        s = s.upper;
      }
      return false;
    }
    case "CallExpression": {
      if (node.callee.type === "Identifier") return BOUNDED_CALLS.has(node.callee.name);
      // A query builder chain: db.select(...).from(...)... is a subquery, bound parameters of its own only.
      for (let n = node; n && (n.type === "CallExpression" || n.type === "MemberExpression"); n = n.type === "CallExpression" ? n.callee : n.object) {
        if (n.type === "MemberExpression" && n.property.type === "Identifier" && QUERY_BUILDER.has(n.property.name)) return true;
      }
      return false;
    }
    default:
      return false;
  }
}
const IN_BEFORE = /\bIN\s*\(?\s*$/;

const house = {
  rules: {
    "bounded-in-lists": {
      meta: {
        type: "problem",
        schema: [],
        messages: {
          inArray:
            "D1 refuses more than 100 bound parameters: pass a list through inValues(column, list) (db/bounded.ts, one JSON parameter), not {{name}}.",
          template: "D1 refuses more than 100 bound parameters: no `IN (${list})` built from a list; use json_each (inValues) or boundedMarks(list).",
        },
      },
      create(context) {
        const scopeOf = (node) => context.sourceCode.getScope(node);
        return {
          CallExpression(node) {
            const name = node.callee.type === "Identifier" ? node.callee.name : node.callee.type === "MemberExpression" && node.callee.property.type === "Identifier" ? node.callee.property.name : null;
            if ((name === "inArray" || name === "notInArray") && !isBoundedList(node.arguments[1], scopeOf(node)))
              context.report({ node, messageId: "inArray", data: { name } });
          },
          TemplateLiteral(node) {
            node.quasis.forEach((quasi, i) => {
              const expression = node.expressions[i];
              if (expression && IN_BEFORE.test(quasi.value.raw) && !isBoundedList(expression, scopeOf(node))) context.report({ node: expression, messageId: "template" });
            });
          },
        };
      },
    },
    "no-issue-comments": {
      meta: {
        type: "suggestion",
        schema: [],
        messages: {
          issue: "Comments cite a decision record (docs/decisions/NNN) or give the reason, not an issue number.",
          spec: "Comments cite docs/product-rules.md or say the rule, not a section of the spec.",
        },
      },
      create(context) {
        return {
          Program() {
            for (const comment of context.sourceCode.getAllComments()) {
              if (ISSUE_REF.test(comment.value)) context.report({ loc: comment.loc, messageId: "issue" });
              else if (SPEC_SECTION.test(comment.value)) context.report({ loc: comment.loc, messageId: "spec" });
            }
          },
        };
      },
    },
  },
};

export default tseslint.config(
  { ignores: ["dist", ".wrangler", "node_modules", "worker/worker-configuration.d.ts", "migrations"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["worker/**/*.{ts,tsx,js,mjs}", "web/**/*.{ts,tsx,js,mjs}", "party/**/*.{ts,tsx,js,mjs}", "test/**/*.{ts,tsx,js,mjs}", "scripts/**/*.{ts,js,mjs}"],
    plugins: { house },
    rules: { "house/no-issue-comments": "error" },
  },
  {
    files: ["worker/**/*.ts"],
    rules: { "house/bounded-in-lists": "error" },
  },
  {
    // Temporary: these files are rewritten on other branches right now, which clean their comments;
    // each line goes when its branch is merged.
    files: [
      "test/e2e/**",
    ],
    rules: { "house/no-issue-comments": "off" },
  },
  {
    files: ["scripts/**/*.mjs", "test/e2e/**", "test/bench/**", "*.config.{js,ts}"],
    // Node, plus the browser globals of code that Playwright runs inside the page.
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    files: ["web/public/**/*.js"],
    languageOptions: { globals: globals.browser },
  },
  {
    // The SPA: browser globals, hooks rules, and the import boundary of the architecture guide.
    files: ["web/**/*.{ts,tsx}", "test/web/**/*.{ts,tsx}"],
    languageOptions: { globals: globals.browser },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "no-restricted-imports": ["error", { patterns: [spaBoundary] }],
    },
  },
  {
    // Features never import each other: shared code lives in components/ or lib/.
    files: ["web/features/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            spaBoundary,
            { group: ["../../*/**", "!../../../**"], message: noOtherFeature },
            // The long way round (../../../features/x) reaches another feature too.
            { group: ["**/features/**", "**/features"], message: noOtherFeature },
            { group: ["**/app/**"], message: "Features never import the app layer." },
          ],
        },
      ],
    },
  },
  {
    // Shared code sits under the features: lib/, components/ and config/ never reach up into a feature or the app.
    files: ["web/lib/**/*.{ts,tsx}", "web/components/**/*.{ts,tsx}", "web/config/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            spaBoundary,
            { group: ["**/features/**", "**/features", "**/app/**", "**/app"], message: "Shared SPA code (lib, components, config) never imports a feature or the app layer." },
          ],
        },
      ],
    },
  },
  // The worker's zones (architecture.md "Code layout"). Each block lists every pattern that
  // applies to its files, the shared ones included, for the reason given at spaBoundary.
  {
    files: ["worker/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [noSpa] }] },
  },
  {
    // Routes call services; a route that imports another route is a service waiting to be written.
    // Files of one route's folder may import each other (admin/index.ts mounts admin/*.ts).
    files: ["worker/routes/*/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [noSpa, oneDbPerRequest("Routes"), noQueryBuilder, { regex: "^\\.\\./[^./][^/]*(/|$)", message: noOtherRoute }] }],
    },
  },
  {
    files: ["worker/routes/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [noSpa, oneDbPerRequest("Routes"), noQueryBuilder, { regex: "^\\./", message: noOtherRoute }] }] },
  },
  {
    files: ["worker/routes/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        { selector: "CallExpression[callee.property.name='prepare']", message: noSqlInRoutes },
        { selector: "TaggedTemplateExpression[tag.name='sql']", message: noSqlInRoutes },
        { selector: "MemberExpression[property.name='DB'][object.name='env']", message: noSqlInRoutes },
        { selector: "MemberExpression[property.name='DB'][object.property.name='env']", message: noSqlInRoutes },
        { selector: "VariableDeclarator[init.property.name='env'] > ObjectPattern > Property[key.name='DB']", message: noSqlInRoutes },
      ],
    },
  },
  {
    // Pure helpers and the browse query sit under the services: they never import them (nor the HTTP layer).
    files: ["worker/lib/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [noSpa, httpLayer("worker/lib"), noServices("worker/lib")] }] },
  },
  {
    files: ["worker/db/browse/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [noSpa, httpLayer("db/browse"), noServices("db/browse")] }] },
  },
  {
    files: ["worker/services/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [noSpa, httpLayer("Services"), oneDbPerRequest("Services"), notifyOnly] }] },
  },
  {
    files: ["worker/services/notify/channels/email.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [noSpa, httpLayer("Services"), oneDbPerRequest("Services")] }] },
  },
  {
    // The cron's run and the queues' consumer are outside any request: each makes one handle for the whole run and passes it down.
    files: ["worker/services/housekeeping.ts", "worker/services/background/consumer.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [noSpa, httpLayer("Services")] }] },
  },
  {
    files: ["worker/db/queries/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [noSpa, httpLayer("db/queries"), { group: ["**/services/**"], message: "db/queries never imports services: a service calls its queries, not the other way round." }] },
      ],
    },
  },
  {
    // The contract is shared by the worker, the rooms and the SPA: it stands alone (npm packages aside).
    files: ["worker/contract/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["../**", "@web/**", "@party/**", "@contract/**"], message: "worker/contract imports nothing outside itself (npm packages only)." }] },
      ],
    },
  },
  {
    // The rooms need no database: the worker checks who may connect (services/room-access.ts) and
    // publishes over RPC, so party/ sees only its protocol and the contract.
    files: ["party/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            // A regex: a gitignore-style group cannot re-include worker/contract once ../** excluded worker/.
            { regex: "^\\.\\./(?!worker/contract/[^/.][^/]*$)", message: partyBoundary },
            { group: ["@web/**", "@contract/**"], message: partyBoundary },
          ],
        },
      ],
    },
  },
);
