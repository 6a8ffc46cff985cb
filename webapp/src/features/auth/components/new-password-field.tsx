import { PasswordField } from '@/components/password-field';

import type { PasswordRule } from '../utils/password-rules';
import { PasswordChecklist } from './password-checklist';

export interface NewPasswordFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  rules: PasswordRule[];
  error?: string | null;
}

/** A new password with the server's policy as a live checklist under it. */
export function NewPasswordField({ label, value, onChange, rules, error }: NewPasswordFieldProps) {
  return (
    <PasswordField
      label={label}
      value={value}
      onChange={onChange}
      autoComplete="new-password"
      error={error}
      hint={<PasswordChecklist rules={rules} />}
    />
  );
}
