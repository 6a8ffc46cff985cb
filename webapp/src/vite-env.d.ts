/// <reference types="vite/client" />

/** The id of this build, injected by `vite.config.ts`; compared with `/builds/latest.json`. */
declare const __BALCAO_BUILD_ID__: string;
