import { PasswordField, type PasswordFieldProps } from '@/components/password-field';

import type { PasswordRule } from '../utils/password-rules';
import { PasswordChecklist } from './password-checklist';

export interface NewPasswordFieldProps extends Omit<PasswordFieldProps, 'autoComplete' | 'hint'> {
  rules: PasswordRule[];
}

/** A new password with the server's policy as a live checklist under it. */
export function NewPasswordField({ rules, ...field }: NewPasswordFieldProps) {
  return <PasswordField autoComplete="new-password" {...field} hint={<PasswordChecklist rules={rules} />} />;
}
