import { describe, expect, it } from 'vitest';

import { formatTyped, maskAsTyped, maskOf, notOfKind } from './key-kinds';

describe('keys as people read them', () => {
  it('types CPF, CNPJ and mobiles with a mask and the rest as free text', () => {
    expect(maskOf('cpf')).toBe('cpf');
    expect(maskOf('cnpj')).toBe('cnpj');
    expect(maskOf('telefone')).toBe('phone');
    expect(maskOf('email')).toBeNull();
    expect(maskOf('')).toBeNull();
  });

  it('says an e-mail is no CPF, and lets the server judge what could be one', () => {
    expect(notOfKind('cpf', 'bia@loja.com')).toMatch(/^Isto não é um CPF/);
    expect(notOfKind('telefone', 'bia@loja.com')).toMatch(/^Isto não é um celular/);
    expect(notOfKind('cpf', '529.982.247-25')).toBeNull();
    expect(notOfKind('cnpj', '12.ABC.345/01DE-35')).toBeNull();
    expect(notOfKind('email', '52998224725')).toBeNull();
  });

  it('writes a typed CPF, CNPJ or mobile with its mask, and leaves anything else as typed', () => {
    expect(formatTyped('cpf', '52998224725')).toBe('529.982.247-25');
    expect(formatTyped('cnpj', '11222333000181')).toBe('11.222.333/0001-81');
    expect(formatTyped('telefone', '11987654321')).toBe('(11) 98765-4321');
    expect(formatTyped('telefone', '+55 11 98765-4321')).toBe('(11) 98765-4321');
    expect(formatTyped('cpf', '5299')).toBe('5299');
    expect(formatTyped('cpf', 'bia@loja.com')).toBe('bia@loja.com');
  });

  it('follows the mask as a CPF or mobile is typed, and leaves alone what cannot be one', () => {
    expect(maskAsTyped('cpf', '5299822')).toBe('529.982.2');
    expect(maskAsTyped('telefone', '1198765')).toBe('(11) 9876-5');
    expect(maskAsTyped('telefone', '(11) 9876-54321')).toBe('(11) 98765-4321');
    expect(maskAsTyped('telefone', '+55119')).toBe('+55119');
    expect(maskAsTyped('cpf', 'rita@')).toBe('rita@');
    expect(maskAsTyped('email', '52998224725')).toBe('52998224725');
  });
});
