import { Link } from 'react-router';
import { z } from 'zod';

import { FormAlert } from '@/components/form-alert';
import { TextField } from '@/components/text-field';
import { paths } from '@/config/paths';
import { useApiForm } from '@/hooks/use-api-form';
import { asApiError } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';
import { emailAddress } from '@/utils/field-rules';

import { useRecoverPasswordMutation } from '../api/recover-password';

const recoverSchema = z.object({ email: emailAddress() });

export const RECOVERY_SENT =
  'Se houver uma conta com este e-mail, enviaremos as instruções em instantes. Confira também a caixa de spam.';

/** Asks for a reset link. The answer is the same whether or not the e-mail has an account. */
export function RecoverPasswordForm() {
  const [recover, { isLoading }] = useRecoverPasswordMutation();
  const form = useApiForm({
    schema: recoverSchema,
    defaultValues: { email: '' },
    send: async (request) => {
      try {
        await recover(request).unwrap();
      } catch (caught) {
        // Should the server ever say the account does not exist, the page must not repeat it.
        if (asApiError(caught).code !== 'user-not-found') throw caught;
      }
      return true;
    },
  });

  if (form.outcome) {
    return (
      <div role="status">
        <p>{RECOVERY_SENT}</p>
        <p>
          <Link to={paths.auth.logIn.path}>Voltar para Entrar</Link>
        </p>
      </div>
    );
  }

  return (
    <form {...form.formProps} aria-label="Recuperar senha">
      <p>Digite o e-mail da sua conta. Enviaremos um link para você criar uma senha nova.</p>
      {form.failure ? <FormAlert>{errorMessage(form.failure)}</FormAlert> : null}
      <TextField
        label="E-mail"
        type="email"
        autoComplete="email"
        inputMode="email"
        autoCapitalize="off"
        {...form.field('email')}
      />
      <button type="submit" className="button big" disabled={isLoading}>
        {isLoading ? 'Enviando…' : 'Enviar link'}
      </button>
      <p className="hint">
        Lembrou a senha? <Link to={paths.auth.logIn.path}>Entrar</Link>
      </p>
    </form>
  );
}
