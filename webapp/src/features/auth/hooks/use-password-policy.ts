import { useGetPasswordPolicyQuery } from '../api/get-password-policy';
import { FALLBACK_PASSWORD_POLICY, type PasswordPolicy } from '../utils/password-rules';

/** The server's password policy; the minimal one until it arrives (or if it cannot be fetched). */
export function usePasswordPolicy(): PasswordPolicy {
  const { data: policy = FALLBACK_PASSWORD_POLICY } = useGetPasswordPolicyQuery();
  return policy;
}
