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
            { group: ["../../*/**", "!../../../**"], message: "Features never import other features." },
            { group: ["**/app/**"], message: "Features never import the app layer." },
          ],
        },
      ],
    },
  },
  {
    files: ["worker/**/*.ts", "party/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        // The one seam is the built server renderer, imported as `@web/ssr` (docs/decisions/017).
        { patterns: [{ group: ["**/web/**"], message: "The worker never imports the SPA (the server renderer comes in as @web/ssr)." }] },
      ],
    },
  },
);
