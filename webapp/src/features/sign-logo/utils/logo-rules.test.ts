import { describe, expect, it } from 'vitest';

import { MAX_LOGO_BYTES, checkLogo } from './logo-rules';

describe('checkLogo', () => {
  it('accepts PNG, JPEG and SVG up to 2 MB', () => {
    expect(checkLogo({ name: 'logo.png', type: 'image/png', size: 1000 })).toBeNull();
    expect(checkLogo({ name: 'logo.jpg', type: 'image/jpeg', size: MAX_LOGO_BYTES })).toBeNull();
    expect(checkLogo({ name: 'logo.svg', type: '', size: 10 })).toBeNull();
  });

  it('refuses other types, empty files and files over 2 MB in Portuguese', () => {
    expect(checkLogo({ name: 'logo.gif', type: 'image/gif', size: 10 })).toMatch(/PNG, JPEG ou SVG/);
    expect(checkLogo({ name: 'logo.png', type: 'image/png', size: 0 })).toMatch(/vazio/);
    expect(checkLogo({ name: 'logo.png', type: 'image/png', size: MAX_LOGO_BYTES + 1 })).toMatch(/2 MB/);
  });
});
