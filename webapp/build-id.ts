// Build identity for the version check: the running app compares its own id with /builds/latest.json.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import type { Plugin } from 'vite';

/** Every file under `dir`, sorted, so the hash does not depend on directory order. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? filesUnder(path) : [path];
    })
    .sort();
}

/**
 * `BALCAO_BUILD_ID` when the deploy sets one (reproducible builds), otherwise a UTC timestamp plus a
 * short hash of the sources and the lockfile, so two different builds never share an id.
 */
export function resolveBuildId(root: string, env: NodeJS.ProcessEnv, now: Date): string {
  const fromEnv = env.BALCAO_BUILD_ID?.trim();
  if (fromEnv) return fromEnv;
  const hash = createHash('sha256');
  for (const file of [...filesUnder(join(root, 'src')), join(root, 'package-lock.json')]) {
    hash.update(relative(root, file));
    hash.update(readFileSync(file));
  }
  const stamp = now.toISOString().replace(/[-:]/g, '').slice(0, 15);
  return `${stamp}-${hash.digest('hex').slice(0, 10)}`;
}

/**
 * Publishes the build id at `/builds/latest.json`: emitted as `dist/builds/latest.json` by the build
 * (the server serves that file) and answered by the dev server, so the version check works in both.
 */
export function latestBuildManifest(buildId: string): Plugin {
  const body = `${JSON.stringify({ buildId })}\n`;
  return {
    name: 'balcao-latest-build',
    configureServer(server) {
      server.middlewares.use('/builds/latest.json', (_request, response) => {
        response.setHeader('Content-Type', 'application/json');
        response.setHeader('Cache-Control', 'no-store');
        response.end(body);
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'builds/latest.json', source: body });
    },
  };
}
