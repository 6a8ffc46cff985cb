import { useWatch } from 'react-hook-form';
import { z } from 'zod';

import { FormAlert } from '@/components/form-alert';
import { PasswordField } from '@/components/password-field';
import { useApiForm } from '@/hooks/use-api-form';
import { WRONG_CURRENT_PASSWORD, errorMessage } from '@/lib/error-messages';
import { requiredSecret } from '@/utils/field-rules';

import { useChangePasswordMutation } from '../api/change-password';
import { usePasswordPolicy } from '../hooks/use-password-policy';
import { type PasswordPolicy, newPasswordText, passwordRules } from '../utils/password-rules';
import { NewPasswordField } from './new-password-field';

const changePasswordSchema = (policy: PasswordPolicy) =>
  z.object({ currentPassword: requiredSecret(), newPassword: newPasswordText(policy) });

/** For a signed-in person: the current password, and a new one checked live against the policy. */
export function ChangePasswordForm() {
  const [changePassword, { isLoading }] = useChangePasswordMutation();
  const policy = usePasswordPolicy();
  const form = useApiForm({
    schema: changePasswordSchema(policy),
    defaultValues: { currentPassword: '', newPassword: '' },
    send: async (passwords) => {
      await changePassword(passwords).unwrap();
      return true;
    },
    clearOnSuccess: ['currentPassword', 'newPassword'],
    codeFields: {
      'wrong-password': { field: 'currentPassword', message: WRONG_CURRENT_PASSWORD },
      // The server's message says what the policy still misses.
      'weak-password': { field: 'newPassword' },
    },
  });
  const rules = passwordRules(policy, useWatch({ control: form.control, name: 'newPassword' }));

  return (
    <form {...form.formProps} aria-label="Trocar senha">
      {form.failure ? <FormAlert takeFocus>{errorMessage(form.failure)}</FormAlert> : null}
      {form.outcome ? (
        <p className="notice" role="status">
          Senha alterada. Use a senha nova na próxima vez que entrar.
        </p>
      ) : null}
      <PasswordField label="Senha atual" autoComplete="current-password" {...form.field('currentPassword')} />
      <NewPasswordField label="Senha nova" rules={rules} {...form.field('newPassword')} />
      <button type="submit" className="button" disabled={isLoading}>
        {isLoading ? 'Salvando…' : 'Trocar senha'}
      </button>
    </form>
  );
}
