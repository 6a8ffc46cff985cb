import { describe, expect, it } from 'vitest';

import { displayKey, keyChoiceName } from './key-choice-name';

describe('keys as people read them', () => {
  it('masks CPF, CNPJ (alphanumeric too) and mobile numbers, and leaves e-mail and random keys as they are', () => {
    expect(displayKey('cpf', '52998224725')).toBe('529.982.247-25');
    expect(displayKey('cnpj', '12ABC34501DE35')).toBe('12.ABC.345/01DE-35');
    expect(displayKey('phone', '+5511912345678')).toBe('(11) 91234-5678');
    expect(displayKey('email', 'loja@padaria.com')).toBe('loja@padaria.com');
    expect(displayKey('evp', '123e4567-e89b-12d3-a456-426614174000')).toBe('123e4567-e89b-12d3-a456-426614174000');
  });

  it('names a key in a dropdown as Brazilians write it, not as the DICT stores it', () => {
    const key = { id: 'k', label: null, holderName: null, isDefault: false };
    expect(keyChoiceName({ ...key, kind: 'phone', pixKey: '+5511987654321' })).toBe('Celular: (11) 98765-4321');
    expect(keyChoiceName({ ...key, kind: 'cnpj', pixKey: '11222333000181', isDefault: true })).toBe(
      'CNPJ: 11.222.333/0001-81 (padrão)',
    );
    expect(keyChoiceName({ ...key, kind: 'cpf', pixKey: '12345678909', label: 'Meu CPF' })).toBe(
      'Meu CPF: 123.456.789-09',
    );
  });
});
