import { useWatch } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { z } from 'zod';

import { FormAlert } from '@/components/form-alert';
import { TextField } from '@/components/text-field';
import { paths } from '@/config/paths';
import { useApiForm } from '@/hooks/use-api-form';
import { errorMessage } from '@/lib/error-messages';
import { safeContinuePath } from '@/utils/continue-path';
import { MAX_NAME_LENGTH, emailAddress, personName } from '@/utils/field-rules';

import { useSignUpMutation } from '../api/sign-up';
import { usePasswordPolicy } from '../hooks/use-password-policy';
import { type PasswordPolicy, newPasswordText, passwordRules } from '../utils/password-rules';
import { NewPasswordField } from './new-password-field';

const signUpSchema = (policy: PasswordPolicy) =>
  z.object({ displayName: personName(), email: emailAddress(), password: newPasswordText(policy) });

/** Name, e-mail and a password checked live against the server's policy. */
export function SignUpForm() {
  // Keep the visitor's errand (e.g. an invitation link) when they switch between log-in and sign-up.
  const [searchParams] = useSearchParams();
  const continueTo = safeContinuePath(searchParams.get(paths.continueParam));
  const [signUp, { isLoading }] = useSignUpMutation();
  const policy = usePasswordPolicy();
  const form = useApiForm({
    schema: signUpSchema(policy),
    defaultValues: { displayName: '', email: '', password: '' },
    send: async (account) => {
      await signUp(account).unwrap();
      return true;
    },
    // Stays in the alert, which offers to sign in or recover the password.
    codeFields: { 'email-already-in-use': null },
  });
  const rules = passwordRules(policy, useWatch({ control: form.control, name: 'password' }));

  return (
    <form {...form.formProps} aria-label="Criar conta">
      {form.failure ? (
        <FormAlert>
          {errorMessage(form.failure)}
          {form.failure.code === 'email-already-in-use' ? (
            <>
              {' '}
              <Link to={paths.auth.logIn.path}>Entrar</Link> ·{' '}
              <Link to={paths.auth.recover.path}>Esqueci minha senha</Link>
            </>
          ) : null}
        </FormAlert>
      ) : null}
      <TextField label="Seu nome" autoComplete="name" maxLength={MAX_NAME_LENGTH * 2} {...form.field('displayName')} />
      <TextField
        label="E-mail"
        type="email"
        autoComplete="email"
        inputMode="email"
        autoCapitalize="off"
        {...form.field('email')}
      />
      <NewPasswordField label="Senha" rules={rules} {...form.field('password')} />
      <p className="hint">
        Ao criar a conta, você concorda com os <a href={paths.server.terms}>Termos de uso</a> e com a{' '}
        <a href={paths.server.privacy}>Política de privacidade</a>.
      </p>
      <button type="submit" className="button big" disabled={isLoading}>
        {isLoading ? 'Criando conta…' : 'Criar conta'}
      </button>
      <p className="hint">
        Já tem conta? <Link to={paths.auth.logIn.getHref(continueTo)}>Entrar</Link>
      </p>
    </form>
  );
}
