import { describe, expect, it } from 'vitest';

import { safeContinuePath } from './continue-path';

describe('safeContinuePath', () => {
  it('keeps dashboard paths with their query string', () => {
    expect(safeContinuePath('/painel')).toBe('/painel');
    expect(safeContinuePath('/painel/chaves?pagina=2')).toBe('/painel/chaves?pagina=2');
  });

  it.each([
    null,
    '',
    'https://golpe.example/painel',
    '//golpe.example/painel',
    '/\\golpe.example',
    '/painel\\..\\..\\x',
    '/painelx',
    '/entrar',
    '/painel/../entrar',
    '/painel/\nx',
  ])('refuses %j', (raw) => {
    expect(safeContinuePath(raw)).toBeNull();
  });
});
