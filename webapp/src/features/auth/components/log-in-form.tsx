import { Link, useSearchParams } from 'react-router';
import { z } from 'zod';

import { FormAlert } from '@/components/form-alert';
import { PasswordField } from '@/components/password-field';
import { TextField } from '@/components/text-field';
import { paths } from '@/config/paths';
import { useApiForm } from '@/hooks/use-api-form';
import { errorMessage } from '@/lib/error-messages';
import { safeContinuePath } from '@/utils/continue-path';
import { emailAddress, requiredSecret } from '@/utils/field-rules';

import { useLogInMutation } from '../api/log-in';

const logInSchema = z.object({ email: emailAddress(), password: requiredSecret() });

/** E-mail and password. Where to go next is decided by the page's guard once signed in. */
export function LogInForm() {
  // Keep the visitor's errand (e.g. an invitation link) when they switch between log-in and sign-up.
  const [searchParams] = useSearchParams();
  const continueTo = safeContinuePath(searchParams.get(paths.continueParam));
  const [logIn, { isLoading }] = useLogInMutation();
  const form = useApiForm({
    schema: logInSchema,
    defaultValues: { email: '', password: '' },
    send: async (credentials) => {
      await logIn(credentials).unwrap();
      return true;
    },
    // A refused sign-in reads the same whatever the cause, in the alert, never under one field:
    // pointing at the password would tell that the e-mail has an account.
    codeFields: { 'invalid-credential': null, 'wrong-password': null, 'user-not-found': null },
  });

  return (
    <form {...form.formProps} aria-label="Entrar">
      {form.failure ? <FormAlert>{errorMessage(form.failure)}</FormAlert> : null}
      <TextField
        label="E-mail"
        type="email"
        autoComplete="email"
        inputMode="email"
        autoCapitalize="off"
        {...form.field('email')}
      />
      <PasswordField label="Senha" autoComplete="current-password" {...form.field('password')} />
      <p>
        <Link to={paths.auth.recover.path}>Esqueci minha senha</Link>
      </p>
      <button type="submit" className="button big" disabled={isLoading}>
        {isLoading ? 'Entrando…' : 'Entrar'}
      </button>
      <p className="hint">
        Ainda não tem conta? <Link to={paths.auth.signUp.getHref(continueTo)}>Criar conta</Link>
      </p>
    </form>
  );
}
