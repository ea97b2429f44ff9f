import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { cloudflare } from "@cloudflare/vite-plugin";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { THEME_INIT_SCRIPT } from "./worker/contract/theme-init.ts";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  version: string;
};

/** Writes /version.txt (the build version) next to the SPA's files. */
function versionFile(): Plugin {
  return {
    name: "campusnest-version-file",
    generateBundle() {
      this.emitFile({ type: "asset", fileName: "version.txt", source: `${version}\n` });
    },
  };
}

/**
 * index.html for pages that arrive rendered (decision 017): the theme script inline (allowed by its
 * CSP hash), and the app's JavaScript at low priority, so the first screen's CSS and photo are
 * fetched first (the page is already readable without it).
 */
function firstPaintFirst(): Plugin {
  return {
    name: "campusnest-first-paint-first",
    transformIndexHtml: {
      order: "post",
      handler: (html) =>
        html
          .replace("<!-- theme-init: replaced by the script of worker/contract/theme-init.ts (vite.config.ts) -->", () => `<script>${THEME_INIT_SCRIPT}</script>`)
          .replace(/<script type="module"/g, '<script type="module" fetchpriority="low"')
          .replace(/<link rel="modulepreload"/g, '<link rel="modulepreload" fetchpriority="low"'),
    },
  };
}

/**
 * The chunks index.html loads before anything else (the entry and what it imports, transitively), by
 * file name, recorded before Vite writes each dynamic import's preload list (build.modulePreload
 * below): those lists need not name them, they are loaded before any lazy page is asked for, and each
 * name costs `/` bytes (docs/decisions/023).
 */
const firstLoad = new Set<string>();
function recordFirstLoad(): Plugin {
  return {
    name: "campusnest-first-load",
    applyToEnvironment: (environment) => environment.name === "client",
    generateBundle: {
      order: "pre",
      handler(_options, bundle) {
        firstLoad.clear();
        const visit = (file: string) => {
          const chunk = bundle[file];
          if (chunk?.type !== "chunk" || firstLoad.has(file)) return;
          firstLoad.add(file);
          chunk.imports.forEach(visit);
        };
        for (const [file, chunk] of Object.entries(bundle)) if (chunk.type === "chunk" && chunk.isEntry) visit(file);
      },
    },
  };
}

/** The modules of the `shared` chunk (build.rollupOptions below). */
export const SHARED_CHUNK = /[\\/](web[\\/](lib[\\/](api-client|session|sign-in-prompt|auth-store|storage|listings-api|theme)|config[\\/](env|paths)|components[\\/]ui[\\/](toast|deferred))|worker[\\/]contract[\\/](constants|policies|browse-url))\.tsx?$/;

/**
 * The modules of the `deals` chunk: the deal pages' own code. Left out: the listing page's small
 * "Request to sublease" button (its form loads on demand), so the listing's first load does not take
 * this chunk and the zod it needs through contract/deals.
 */
export const DEALS_CHUNK = /[\\/]web[\\/](app[\\/]routes[\\/]deals\.tsx|lib[\\/](deals-api|deal-status)\.ts|features[\\/]deals[\\/](?!components[\\/]request-deal\.tsx).*)$/;

/**
 * The modules of the `listing` chunk: what the listing page's first load needs besides its own chunk and
 * the first load's, that other lazy pages share (the thread, profile, deals). Split by importer they made
 * seven small files, each a request before the page can hydrate (docs/decisions/034). The tiny, widely
 * shared limits.ts and waits.ts stay apart (every dialog would otherwise load this chunk).
 */
export const LISTING_CHUNK =
  /[\\/](web[\\/](lib[\\/](listing-detail|own-listings-api)\.ts|components[\\/]ui[\\/](trust-checks|school-email-badge)\.tsx|features[\\/]deals[\\/]components[\\/]request-deal\.tsx)|worker[\\/]contract[\\/](address|messaging-rules)\.ts)$/;

export default defineConfig(({ command }) => ({
  root: "web",
  publicDir: "public",
  define: {
    __APP_VERSION__: JSON.stringify(version),
    // The server renderer bundles React's CommonJS entry points: pick their production build now.
    ...(command === "build" ? { "process.env.NODE_ENV": JSON.stringify("production") } : {}),
  },
  resolve: {
    // The only parts of the worker the SPA may import (eslint enforces the boundary).
    alias: {
      "@contract": fileURLToPath(new URL("./worker/contract", import.meta.url)),
      "@party": fileURLToPath(new URL("./party", import.meta.url)),
      // `npm run dev` runs the worker inside Vite: its server renderer straight from source.
      ...(command === "serve" ? { "@web/ssr": fileURLToPath(new URL("./web/app/ssr.tsx", import.meta.url)) } : {}),
    },
  },
  // `vite build` builds two environments: the SPA (dist/client) and the server renderer the worker
  // imports as `@web/ssr` (dist/server/ssr.js; wrangler.toml [alias]), with React's edge build.
  ...(command === "build"
    ? {
        builder: {},
        environments: {
          ssr: {
            resolve: { conditions: ["workerd", "worker", "module", "import", "default"], noExternal: true },
            build: {
              outDir: "../dist/server",
              emptyOutDir: true,
              copyPublicDir: false,
              target: "es2022",
              sourcemap: false,
              minify: true,
              rollupOptions: { input: { ssr: fileURLToPath(new URL("./web/app/ssr.tsx", import.meta.url)) }, output: { entryFileNames: "[name].js" } },
            },
          },
        },
      }
    : {}),
  plugins: [
    react(),
    versionFile(),
    firstPaintFirst(),
    recordFirstLoad(),
    // `npm run dev`: the worker runs inside Vite (workerd, local D1/R2/DOs) with hot reload.
    // `vite build` builds the SPA only; wrangler bundles the worker (see docs/decisions).
    // Same state directory as `wrangler dev`, so both commands see the same local data.
    ...(command === "serve"
      ? [
          cloudflare({
            configPath: "../wrangler.toml",
            persistState: { path: "../.wrangler/state" },
            // Vite's dev client needs an inline preamble and blob workers: see lib/security-headers.ts.
            config: (config) => ({ vars: { ...config.vars, DEV_SERVER: "vite" } }),
          }),
        ]
      : []),
  ],
  build: {
    outDir: "../dist/client",
    emptyOutDir: true,
    // Hidden (decision 022): maps are written for an error tracker and the bench, with no
    // sourceMappingURL in the served files; .assetsignore keeps them out of the deployed assets.
    sourcemap: "hidden",
    target: "es2022",
    // No modulepreload polyfill (about 0.2 KB gzip on `/`, docs/decisions/023): every browser we
    // target preloads modules itself (Chrome 66, Safari 17, Firefox 115); an older one still runs
    // the app, fetching the chunks as the entry imports them.
    modulePreload: {
      polyfill: false,
      // A lazy page's preload list leaves out the chunks the first load already brought (recordFirstLoad).
      resolveDependencies: (_file, deps, { hostType }) => (hostType === "js" ? deps.filter((dep) => !firstLoad.has(dep)) : deps),
    },
    // MapLibre's chunk is about 1.1 MB (310 KB gzip) and loads only when a map is shown (issue 27);
    // every other chunk is far below this. The bench reports what each view loads.
    chunkSizeWarningLimit: 1200,
    rollupOptions: {
      // The libraries every page needs in one long-cached file (they change far less often than our
      // code); left alone, the bundler cuts them into several small shared chunks.
      output: {
        // Chunk files by hash alone: every lazy chunk's name is listed in the entry's preload map, so
        // names cost `/` about 0.4 KB gzip (issue 27; the sourcemaps keep the source names).
        chunkFileNames: "assets/[hash].js",
        codeSplitting: {
          groups: [
            { name: "vendor", test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|@tanstack[\\/][^\\/]+)[\\/]/ },
            // Our modules that the home page and the lazy pages share, in one file rather than one small
            // chunk each (issue 24: about 1.4 KB gzip less on `/`, each file compressed alone). Only
            // zod-free modules the home page loads anyway belong here (test/web/architecture/import-cycles.test.ts).
            { name: "shared", test: SHARED_CHUNK },
            // The deal parts (the thread's card, the listing's request, the deal and landlord pages) in one
            // file: split by importer they made eleven small chunks, each name listed in the entry's map.
            // Only these modules: what they import stays where it was (the home page needs some of it).
            { name: "deals", test: DEALS_CHUNK, includeDependenciesRecursively: false },
            // The listing page's shared parts in one file rather than one each (LISTING_CHUNK); only these modules.
            { name: "listing", test: LISTING_CHUNK, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
}));
