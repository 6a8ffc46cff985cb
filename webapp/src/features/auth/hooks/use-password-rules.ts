import { useGetPasswordPolicyQuery } from '../api/get-password-policy';
import { FALLBACK_PASSWORD_POLICY, type PasswordRule, passwordRules } from '../utils/password-rules';

/** The server's password policy applied to `password`; the minimal policy until it arrives. */
export function usePasswordRules(password: string): { rules: PasswordRule[]; allMet: boolean } {
  const { data: policy = FALLBACK_PASSWORD_POLICY } = useGetPasswordPolicyQuery();
  const rules = passwordRules(policy, password);
  return { rules, allMet: rules.every((rule) => rule.met) };
}
