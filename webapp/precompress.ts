// Compress once, at build: the gateway serves `name.br` / `name.gz` beside each hashed asset to clients that
// accept them, instead of compressing the same bytes on every request.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

import type { Plugin } from 'vite';

/** Extensions worth compressing (images and fonts are compressed already). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|map|txt)$/i;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 256;

/**
 * Writes `file.br` (brotli, best quality) and `file.gz` (gzip, best level) beside `file` when `file` is
 * compressible and each form is smaller; answers the names written.
 */
export function precompressFile(file: string): string[] {
  if (!COMPRESSIBLE.test(file)) return [];
  const body = readFileSync(file);
  if (body.length < MIN_BYTES) return [];
  const forms: [string, Buffer][] = [
    [
      `${file}.br`,
      brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
    ],
    [`${file}.gz`, gzipSync(body, { level: 9 })],
  ];
  return forms
    .filter(([, compressed]) => compressed.length < body.length)
    .map(([name, compressed]) => {
      writeFileSync(name, compressed);
      return name;
    });
}

/** After the bundle is written, compresses every emitted file under `assets/`. */
export function precompressAssets(): Plugin {
  return {
    name: 'balcao-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const outDir = options.dir ?? 'dist';
      for (const fileName of Object.keys(bundle)) {
        if (fileName.startsWith('assets/')) precompressFile(join(outDir, fileName));
      }
    },
  };
}
