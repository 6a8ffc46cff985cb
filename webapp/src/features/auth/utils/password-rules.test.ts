import { describe, expect, it } from 'vitest';

import { type PasswordPolicy, passwordRules } from './password-rules';

const STRICT: PasswordPolicy = {
  minLength: 8,
  requireLowercase: true,
  requireUppercase: true,
  requireNumeric: true,
  requireNonAlphanumeric: true,
};

const met = (password: string) =>
  Object.fromEntries(passwordRules(STRICT, password).map((rule) => [rule.id, rule.met]));

describe('passwordRules', () => {
  it('lists only what the policy asks for', () => {
    const rules = passwordRules({ ...STRICT, requireUppercase: false, requireNonAlphanumeric: false }, '');
    expect(rules.map((rule) => rule.id)).toEqual(['length', 'lowercase', 'numeric']);
  });

  it('ticks each rule the password meets', () => {
    expect(met('abc')).toEqual({ length: false, lowercase: true, uppercase: false, numeric: false, symbol: false });
    expect(met('Abcdef1!')).toEqual({ length: true, lowercase: true, uppercase: true, numeric: true, symbol: true });
  });

  it('counts accented letters as letters, not symbols', () => {
    expect(met('ÇÃO')).toMatchObject({ uppercase: true, symbol: false });
    expect(met('ação')).toMatchObject({ lowercase: true, symbol: false });
  });

  it('counts a space as a symbol', () => {
    expect(met('a b')).toMatchObject({ symbol: true });
  });

  it('counts characters, so an emoji is one', () => {
    expect(met('abcdefg😀')).toMatchObject({ length: true, symbol: true });
    expect(met('abcdef😀')).toMatchObject({ length: false });
  });
});
