import { describe, expect, it } from 'vitest';

import { MAX_PHOTO_BYTES, checkPhoto } from './photo-rules';

describe('checkPhoto', () => {
  it.each(['image/jpeg', 'image/png', 'image/webp'])('accepts a %s up to 1 MiB', (type) => {
    expect(checkPhoto({ type, size: MAX_PHOTO_BYTES })).toBeNull();
  });

  it('refuses a photo one byte over 1 MiB', () => {
    expect(checkPhoto({ type: 'image/png', size: 1024 * 1024 + 1 })).toBe(
      'A foto passa de 1 MB. Escolha uma imagem menor.',
    );
  });

  it.each(['image/gif', 'image/svg+xml', 'application/pdf', ''])('refuses the type "%s"', (type) => {
    expect(checkPhoto({ type, size: 10 })).toBe('Use uma foto em JPEG, PNG ou WebP.');
  });
});
