import { describe, expect, it } from 'vitest';

import { displayKey, maskOf } from './key-kinds';

describe('keys as people read them', () => {
  it('masks CPF, CNPJ (alphanumeric too) and mobile numbers, and leaves e-mail and random keys as they are', () => {
    expect(displayKey('cpf', '52998224725')).toBe('529.982.247-25');
    expect(displayKey('cnpj', '12ABC34501DE35')).toBe('12.ABC.345/01DE-35');
    expect(displayKey('phone', '+5511912345678')).toBe('(11) 91234-5678');
    expect(displayKey('email', 'loja@padaria.com')).toBe('loja@padaria.com');
    expect(displayKey('evp', '123e4567-e89b-12d3-a456-426614174000')).toBe('123e4567-e89b-12d3-a456-426614174000');
  });

  it('types CPF, CNPJ and mobiles with a mask and the rest as free text', () => {
    expect(maskOf('cpf')).toBe('cpf');
    expect(maskOf('cnpj')).toBe('cnpj');
    expect(maskOf('telefone')).toBe('phone');
    expect(maskOf('email')).toBeNull();
    expect(maskOf('')).toBeNull();
  });
});
