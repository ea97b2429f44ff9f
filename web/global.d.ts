/** The build version (package.json), injected by vite.config.ts. */
declare const __APP_VERSION__: string;
