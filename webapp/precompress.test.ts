// @vitest-environment node
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

import { afterEach, describe, expect, it } from 'vitest';

import { precompressFile } from './precompress';

const dirs: string[] = [];
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'balcao-precompress-'));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('precompressFile', () => {
  it('writes brotli and gzip forms beside a script that decode to the same bytes', () => {
    const file = join(scratch(), 'index-abc.js');
    const body = 'export const painel = "Painel do Balcão";\n'.repeat(200);
    writeFileSync(file, body);
    expect(precompressFile(file)).toEqual([`${file}.br`, `${file}.gz`]);
    expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString()).toBe(body);
    expect(gunzipSync(readFileSync(`${file}.gz`)).toString()).toBe(body);
  });

  it('leaves images and tiny files alone', () => {
    const dir = scratch();
    const image = join(dir, 'logo-abc.png');
    writeFileSync(image, Buffer.alloc(4096, 7));
    const tiny = join(dir, 'tiny-abc.css');
    writeFileSync(tiny, 'a{}');
    expect(precompressFile(image)).toEqual([]);
    expect(precompressFile(tiny)).toEqual([]);
  });
});
