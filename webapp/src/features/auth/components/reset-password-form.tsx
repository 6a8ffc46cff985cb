import { useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';

import { FormAlert } from '@/components/form-alert';
import { PageStatus } from '@/components/page-status';
import { paths } from '@/config/paths';
import { useApiForm } from '@/hooks/use-api-form';
import { asApiError } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';

import { useCheckResetCodeQuery, useResetPasswordMutation } from '../api/reset-password';
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
  return <CheckedResetForm oobCode={oobCode} />;
}

/**
 * Asks the server whether the link still works before showing the form: a used or expired link
 * says so on arrival, not after a new password was typed for nothing.
 */
function CheckedResetForm({ oobCode }: { oobCode: string }) {
  const check = useCheckResetCodeQuery(oobCode);
  if (check.isLoading) return <PageStatus>Conferindo o link…</PageStatus>;
  const failure = check.error === undefined ? null : asApiError(check.error);
  if (failure?.code === 'expired-action-code') {
    return (
      <>
        <FormAlert>{errorMessage(failure)}</FormAlert>
        <p>
          <Link className="button" to={paths.auth.recover.path}>
            Pedir um novo link
          </Link>
        </p>
      </>
    );
  }
  // Any other failure (no network, a busy server) says nothing about the link: the form stays,
  // and sending it gets the real answer.
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
