import { describe, expect, it } from 'vitest';
import { type z, config as zodConfig } from 'zod';

import {
  INVALID_EMAIL,
  NAME_TOO_LONG,
  REQUIRED,
  emailAddress,
  optionalText,
  personName,
  requiredSecret,
  requiredText,
} from './field-rules';

/** The first message a schema gives for `value`, or the parsed value when it passes. */
function check(schema: z.ZodType, value: string) {
  const result = schema.safeParse(value);
  return result.success ? { value: result.data } : { error: result.error.issues[0]?.message };
}

describe('field rules', () => {
  it('requires text that is not blank, and sends it trimmed', () => {
    expect(check(requiredText(), '   ')).toEqual({ error: REQUIRED });
    expect(check(requiredText(), '  Recife ')).toEqual({ value: 'Recife' });
  });

  it('sends a password exactly as typed, spaces included, but not a blank one', () => {
    expect(check(requiredSecret(), ' ')).toEqual({ error: REQUIRED });
    expect(check(requiredSecret(), ' minha senha ')).toEqual({ value: ' minha senha ' });
  });

  it('says a blank e-mail is missing before saying it is malformed', () => {
    expect(check(emailAddress(), '')).toEqual({ error: REQUIRED });
    expect(check(emailAddress(), 'ana@exemplo')).toEqual({ error: INVALID_EMAIL });
    expect(check(emailAddress(), ' ana@exemplo.com ')).toEqual({ value: 'ana@exemplo.com' });
  });

  it('counts a name in characters, as the server does: 80 emoji fit, 81 letters do not', () => {
    expect(check(personName(), '😀'.repeat(80))).toEqual({ value: '😀'.repeat(80) });
    expect(check(personName(), 'a'.repeat(81))).toEqual({ error: NAME_TOO_LONG });
    expect(check(personName(), ' ')).toEqual({ error: REQUIRED });
  });

  it('turns a blank optional field into null', () => {
    expect(check(optionalText(), '   ')).toEqual({ value: null });
    expect(check(optionalText(), ' Café ')).toEqual({ value: 'Café' });
  });
});

describe('the schemas under the content security policy', () => {
  it('never try to compile code, which the policy refuses and reports', () => {
    // Reading the configuration changes nothing (an empty update); importing field-rules set it.
    expect(zodConfig({}).jitless).toBe(true);
  });
});
