/// <reference types="vite/client" />

/** Set by vite.config.ts `define`: the shared APP_VERSION and the short commit of the build. */
declare const __APP_VERSION__: string;
declare const __BUILD_HASH__: string;
