import { fileURLToPath } from 'node:url';

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

import { latestBuildManifest, resolveBuildId } from './build-id.ts';
import { precompressAssets } from './precompress.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig(({ command, mode }) => {
  const buildId = mode === 'test' ? 'build-em-teste' : resolveBuildId(root, process.env, new Date());
  return {
    // The gateway serves the built files under /painel/ (so /painel/assets/* falls under the routes it
    // already hands to the app); the dev server keeps / so /entrar and friends work there too.
    base: command === 'build' ? '/painel/' : '/',
    plugins: [react(), latestBuildManifest(buildId), precompressAssets()],
    define: { __BALCAO_BUILD_ID__: JSON.stringify(buildId) },
    resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
    server: {
      // `make run` serves the JSON API (and the account photos, /fotos/*) on 127.0.0.1:8080.
      proxy: { '/api': 'http://127.0.0.1:8080', '/fotos': 'http://127.0.0.1:8080' },
    },
    test: {
      environment: 'jsdom',
      setupFiles: ['./src/testing/setup-tests.ts'],
      restoreMocks: true,
      unstubGlobals: true,
    },
  };
});
