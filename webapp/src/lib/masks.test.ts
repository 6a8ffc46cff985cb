import { Mask } from 'maska';
import { describe, expect, it } from 'vitest';

import { MASK_TOKENS, applyMask } from './masks';

const withTokens = (mask: string) => new Mask({ mask, tokens: MASK_TOKENS, tokensReplace: true });

describe('mask tokens', () => {
  it('# takes digits only', () => {
    expect(withTokens('###').masked('1a2b3')).toBe('123');
  });

  it('X takes letters and digits', () => {
    expect(withTokens('XXXX').masked('a-1_B2')).toBe('a1B2');
  });

  it('S takes letters only', () => {
    expect(withTokens('SSS').masked('a1bc')).toBe('abc');
  });

  it('A takes a letter and makes it upper-case', () => {
    expect(withTokens('AAA').masked('aBc')).toBe('ABC');
  });

  it('a takes a letter and makes it lower-case', () => {
    expect(withTokens('aaa').masked('AbC')).toBe('abc');
  });

  it('! escapes the next character so it is printed as it is', () => {
    expect(withTokens('##!#A').masked('12b')).toBe('12#B');
  });
});

describe('applyMask', () => {
  it('formats a mobile number as (##) #####-####', () => {
    expect(applyMask('phone', '11912345678')).toEqual({
      masked: '(11) 91234-5678',
      unmasked: '11912345678',
      completed: true,
    });
  });

  it('formats a landline as (##) ####-####', () => {
    expect(applyMask('phone', '1134567890').masked).toBe('(11) 3456-7890');
  });

  it('formats a CPF and drops anything that is not a digit', () => {
    expect(applyMask('cpf', '123abc45678909')).toEqual({
      masked: '123.456.789-09',
      unmasked: '12345678909',
      completed: true,
    });
  });

  it('formats a numeric CNPJ', () => {
    expect(applyMask('cnpj', '11222333000181').masked).toBe('11.222.333/0001-81');
  });

  it('formats the new alphanumeric CNPJ, upper-casing its letters', () => {
    expect(applyMask('cnpj', '12abc34501de35')).toEqual({
      masked: '12.ABC.345/01DE-35',
      unmasked: '12ABC34501DE35',
      completed: true,
    });
  });

  it('keeps the two check digits of a CNPJ numeric', () => {
    expect(applyMask('cnpj', '12ABC34501DEXY')).toMatchObject({ masked: '12.ABC.345/01DE-', completed: false });
  });

  it('formats a CEP', () => {
    expect(applyMask('cep', '01310100')).toEqual({ masked: '01310-100', unmasked: '01310100', completed: true });
  });

  it('reports an unfinished value as not completed', () => {
    expect(applyMask('cep', '0131')).toMatchObject({ masked: '0131', completed: false });
  });
});
