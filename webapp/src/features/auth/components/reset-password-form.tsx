import { useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';

import { FormAlert } from '@/components/form-alert';
import { paths } from '@/config/paths';
import { useApiForm } from '@/hooks/use-api-form';
import { errorMessage } from '@/lib/error-messages';

import { useResetPasswordMutation } from '../api/reset-password';
import { usePasswordPolicy } from '../hooks/use-password-policy';
import { type PasswordPolicy, newPasswordText, passwordRules } from '../utils/password-rules';
import { NewPasswordField } from './new-password-field';

export const INCOMPLETE_LINK = 'Este link está incompleto. Abra de novo o link do e-mail ou peça um novo.';

const resetSchema = (policy: PasswordPolicy) => z.object({ newPassword: newPasswordText(policy) });

/** A new password for the account the e-mailed link (its `oobCode`) belongs to. */
export function ResetPasswordForm({ oobCode }: { oobCode: string | null }) {
  if (!oobCode) {
    return (
      <>
        <FormAlert>{INCOMPLETE_LINK}</FormAlert>
        <p>
          <Link to={paths.auth.recover.path}>Pedir um novo link</Link>
        </p>
      </>
    );
  }
  return <NewPasswordForm oobCode={oobCode} />;
}

function NewPasswordForm({ oobCode }: { oobCode: string }) {
  const [reset, { isLoading }] = useResetPasswordMutation();
  const policy = usePasswordPolicy();
  const form = useApiForm({
    schema: resetSchema(policy),
    defaultValues: { newPassword: '' },
    send: async ({ newPassword }) => {
      await reset({ oobCode, newPassword }).unwrap();
      return true;
    },
  });
  const rules = passwordRules(policy, useWatch({ control: form.control, name: 'newPassword' }));

  if (form.outcome) {
    return (
      <div role="status">
        <p>Senha alterada. Agora é só entrar com a senha nova.</p>
        <p>
          <Link className="button" to={paths.auth.logIn.path}>
            Entrar
          </Link>
        </p>
      </div>
    );
  }

  return (
    <form {...form.formProps} aria-label="Criar senha nova">
      {form.failure ? (
        <FormAlert>
          {errorMessage(form.failure)}
          {form.failure.code === 'expired-action-code' ? (
            <>
              {' '}
              <Link to={paths.auth.recover.path}>Pedir um novo link</Link>
            </>
          ) : null}
        </FormAlert>
      ) : null}
      <NewPasswordField label="Senha nova" rules={rules} {...form.field('newPassword')} />
      <button type="submit" className="button big" disabled={isLoading}>
        {isLoading ? 'Salvando…' : 'Salvar senha nova'}
      </button>
    </form>
  );
}
