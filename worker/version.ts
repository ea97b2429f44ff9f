import pkg from "../package.json";

/** The build version: package.json's version (also written to /version.txt by the SPA build). */
export const APP_VERSION: string = pkg.version;
