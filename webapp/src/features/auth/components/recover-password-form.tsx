import { type SubmitEvent, useRef, useState } from 'react';
import { Link } from 'react-router';

import { FormAlert } from '@/components/form-alert';
import { TextField } from '@/components/text-field';
import { paths } from '@/config/paths';
import { useFocusFirstInvalid } from '@/hooks/use-focus-first-invalid';
import { asApiError } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';
import { checkEmail } from '@/utils/field-rules';

import { useRecoverPasswordMutation } from '../api/recover-password';

export const RECOVERY_SENT =
  'Se houver uma conta com este e-mail, enviaremos as instruções em instantes. Confira também a caixa de spam.';

/** Asks for a reset link. The answer is the same whether or not the e-mail has an account. */
export function RecoverPasswordForm() {
  const [recover, { isLoading }] = useRecoverPasswordMutation();
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, attempt);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = checkEmail(email);
    setEmailError(found);
    setFailure(null);
    if (found) {
      setAttempt((count) => count + 1);
      return;
    }
    try {
      await recover({ email: email.trim() }).unwrap();
      setSent(true);
    } catch (caught) {
      const error = asApiError(caught);
      // Should the server ever say the account does not exist, the page must not repeat it.
      if (error.code === 'user-not-found') setSent(true);
      else setFailure(errorMessage(error));
    }
  };

  if (sent) {
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
    <form ref={formRef} noValidate onSubmit={(event) => void submit(event)} aria-label="Recuperar senha">
      <p>Digite o e-mail da sua conta. Enviaremos um link para você criar uma senha nova.</p>
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
        error={emailError}
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
