// @vitest-environment node
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { resolveBuildId } from './build-id';

const root = fileURLToPath(new URL('.', import.meta.url));
const now = new Date(Date.UTC(2026, 10, 2, 12, 30, 5));

describe('resolveBuildId', () => {
  it('uses BALCAO_BUILD_ID when the deploy sets it', () => {
    expect(resolveBuildId(root, { BALCAO_BUILD_ID: ' 2026-11-02-abc ' }, now)).toBe('2026-11-02-abc');
  });

  it('otherwise stamps the build time and a hash of the sources', () => {
    const id = resolveBuildId(root, {}, now);
    expect(id).toMatch(/^20261102T123005-[0-9a-f]{10}$/);
    expect(resolveBuildId(root, {}, now)).toBe(id);
  });
});
