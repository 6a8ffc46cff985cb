// The live checklist under the password field. Character classes follow Unicode properties
// (the same ones Rust's `char::is_lowercase`, `is_uppercase`, `is_numeric` and
// `is_alphanumeric` use), and length counts characters, not bytes or UTF-16 units.

import { z } from 'zod';

import { WEAK_PASSWORD } from '@/utils/field-rules';

/** What `GET /api/auth/password-policy` returns. */
export interface PasswordPolicy {
  minLength: number;
  requireLowercase: boolean;
  requireUppercase: boolean;
  requireNumeric: boolean;
  requireNonAlphanumeric: boolean;
}

/** Used until the server's policy arrives (or if it cannot be fetched); the server still decides. */
export const FALLBACK_PASSWORD_POLICY: PasswordPolicy = {
  minLength: 6,
  requireLowercase: false,
  requireUppercase: false,
  requireNumeric: false,
  requireNonAlphanumeric: false,
};

export type PasswordRuleId = 'length' | 'lowercase' | 'uppercase' | 'numeric' | 'symbol';

export interface PasswordRule {
  id: PasswordRuleId;
  label: string;
  met: boolean;
}

const LOWERCASE = /\p{Lowercase}/u;
const UPPERCASE = /\p{Uppercase}/u;
const NUMERIC = /\p{N}/u;
const NON_ALPHANUMERIC = /[^\p{Alphabetic}\p{N}]/u;

/** The rules the policy asks for, each with whether `password` meets it. */
export function passwordRules(policy: PasswordPolicy, password: string): PasswordRule[] {
  // Characters (code points), as the server counts them; an emoji is one, not two.
  const length = Array.from(password).length;
  const rules: PasswordRule[] = [
    {
      id: 'length',
      label: `Pelo menos ${policy.minLength} caracteres`,
      met: length >= policy.minLength,
    },
  ];
  if (policy.requireLowercase)
    rules.push({ id: 'lowercase', label: 'Uma letra minúscula', met: LOWERCASE.test(password) });
  if (policy.requireUppercase)
    rules.push({ id: 'uppercase', label: 'Uma letra maiúscula', met: UPPERCASE.test(password) });
  if (policy.requireNumeric) rules.push({ id: 'numeric', label: 'Um número', met: NUMERIC.test(password) });
  if (policy.requireNonAlphanumeric) {
    rules.push({ id: 'symbol', label: 'Um símbolo, como ! @ # ou $', met: NON_ALPHANUMERIC.test(password) });
  }
  return rules;
}

/** A new password for a form's schema: refused (with `WEAK_PASSWORD`) until it meets every rule of `policy`. */
export const newPasswordText = (policy: PasswordPolicy) =>
  z.string().refine((password) => passwordRules(policy, password).every((rule) => rule.met), WEAK_PASSWORD);
