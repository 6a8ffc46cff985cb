import { type SubmitEvent, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';

import { FormAlert } from '@/components/form-alert';
import { PasswordField } from '@/components/password-field';
import { TextField } from '@/components/text-field';
import { paths } from '@/config/paths';
import { useFocusFirstInvalid } from '@/hooks/use-focus-first-invalid';
import { asApiError } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';
import { safeContinuePath } from '@/utils/continue-path';
import { checkEmail, checkRequired } from '@/utils/field-rules';

import { useLogInMutation } from '../api/log-in';

interface FieldErrors {
  email: string | null;
  password: string | null;
}

/** E-mail and password. Where to go next is decided by the page's guard once signed in. */
export function LogInForm() {
  // Keep the visitor's errand (e.g. an invitation link) when they switch between log-in and sign-up.
  const [searchParams] = useSearchParams();
  const continueTo = safeContinuePath(searchParams.get(paths.continueParam));
  const [logIn, { isLoading }] = useLogInMutation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({ email: null, password: null });
  const [failure, setFailure] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, attempt);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: FieldErrors = { email: checkEmail(email), password: checkRequired(password) };
    setErrors(found);
    setFailure(null);
    if (found.email || found.password) {
      setAttempt((count) => count + 1);
      return;
    }
    try {
      await logIn({ email: email.trim(), password }).unwrap();
    } catch (caught) {
      setFailure(errorMessage(asApiError(caught)));
    }
  };

  return (
    <form ref={formRef} noValidate onSubmit={(event) => void submit(event)} aria-label="Entrar">
      {failure ? <FormAlert>{failure}</FormAlert> : null}
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
      <PasswordField
        label="Senha"
        value={password}
        onChange={setPassword}
        autoComplete="current-password"
        error={errors.password}
      />
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
