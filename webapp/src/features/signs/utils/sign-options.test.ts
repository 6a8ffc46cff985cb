import { describe, expect, it } from 'vitest';

import { DEFAULT_CHOICES, signFile, signQuery } from './sign-options';

describe('signQuery', () => {
  it('names only what differs from the sign routes’ defaults, spaces as + like the server', () => {
    expect(signQuery(DEFAULT_CHOICES)).toBe('');
    expect(
      signQuery({
        template: 'faixa',
        size: 'a5',
        theme: 'azul',
        headline: ' Pix & cartão ',
        footer: '',
        withLogo: false,
      }),
    ).toBe('?modelo=faixa&tamanho=a5&tema=azul&titulo=Pix+%26+cart%C3%A3o&logo=nao');
  });

  it('names the paper of a bare code unless it is the square, which it gets by default', () => {
    expect(signQuery({ ...DEFAULT_CHOICES, template: 'codigo', size: 'quadrado' })).toBe('?modelo=codigo');
    expect(signQuery({ ...DEFAULT_CHOICES, template: 'codigo', size: 'a4' })).toBe('?modelo=codigo&tamanho=a4');
  });

  it('makes the file address of a code', () => {
    expect(signFile('abc', 'pdf', { ...DEFAULT_CHOICES, size: 'a6' })).toBe('/placas/abc.pdf?tamanho=a6');
  });
});
