import { type SubmitEvent, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';

import { FormAlert } from '@/components/form-alert';
import { TextField } from '@/components/text-field';
import { paths } from '@/config/paths';
import { useFocusFirstInvalid } from '@/hooks/use-focus-first-invalid';
import { type ApiError, asApiError } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';
import { safeContinuePath } from '@/utils/continue-path';
import { MAX_NAME_LENGTH, WEAK_PASSWORD, checkEmail, checkName } from '@/utils/field-rules';

import { useSignUpMutation } from '../api/sign-up';
import { usePasswordRules } from '../hooks/use-password-rules';
import { NewPasswordField } from './new-password-field';

interface FieldErrors {
  displayName: string | null;
  email: string | null;
  password: string | null;
}

const NO_ERRORS: FieldErrors = { displayName: null, email: null, password: null };

/** Name, e-mail and a password checked live against the server's policy. */
export function SignUpForm() {
  // Keep the visitor's errand (e.g. an invitation link) when they switch between log-in and sign-up.
  const [searchParams] = useSearchParams();
  const continueTo = safeContinuePath(searchParams.get(paths.continueParam));
  const [signUp, { isLoading }] = useSignUpMutation();
  const [displayName, setDisplayName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [attempt, setAttempt] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const { rules, allMet } = usePasswordRules(password);
  useFocusFirstInvalid(formRef, attempt);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: FieldErrors = {
      displayName: checkName(displayName),
      email: checkEmail(email),
      password: allMet ? null : WEAK_PASSWORD,
    };
    setErrors(found);
    setFailure(null);
    if (found.displayName || found.email || found.password) {
      setAttempt((count) => count + 1);
      return;
    }
    try {
      await signUp({ displayName: displayName.trim(), email: email.trim(), password }).unwrap();
    } catch (caught) {
      setFailure(asApiError(caught));
    }
  };

  return (
    <form ref={formRef} noValidate onSubmit={(event) => void submit(event)} aria-label="Criar conta">
      {failure ? (
        <FormAlert>
          {errorMessage(failure)}
          {failure.code === 'email-already-in-use' ? (
            <>
              {' '}
              <Link to={paths.auth.logIn.path}>Entrar</Link> ·{' '}
              <Link to={paths.auth.recover.path}>Esqueci minha senha</Link>
            </>
          ) : null}
        </FormAlert>
      ) : null}
      <TextField
        label="Seu nome"
        name="displayName"
        autoComplete="name"
        maxLength={MAX_NAME_LENGTH * 2}
        value={displayName}
        onChange={(event) => setDisplayName(event.target.value)}
        error={errors.displayName}
      />
      <TextField
        label="E-mail"
        name="email"
        type="email"
        autoComplete="email"
        inputMode="email"
        autoCapitalize="off"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={errors.email}
      />
      <NewPasswordField label="Senha" value={password} onChange={setPassword} rules={rules} error={errors.password} />
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
