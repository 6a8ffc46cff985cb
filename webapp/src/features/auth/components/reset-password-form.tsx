import { type SubmitEvent, useRef, useState } from 'react';
import { Link } from 'react-router';

import { FormAlert } from '@/components/form-alert';
import { paths } from '@/config/paths';
import { useFocusFirstInvalid } from '@/hooks/use-focus-first-invalid';
import { type ApiError, asApiError } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';
import { WEAK_PASSWORD } from '@/utils/field-rules';

import { useResetPasswordMutation } from '../api/reset-password';
import { usePasswordRules } from '../hooks/use-password-rules';
import { NewPasswordField } from './new-password-field';

export const INCOMPLETE_LINK = 'Este link está incompleto. Abra de novo o link do e-mail ou peça um novo.';

/** A new password for the account the e-mailed link (its `oobCode`) belongs to. */
export function ResetPasswordForm({ oobCode }: { oobCode: string | null }) {
  const [reset, { isLoading }] = useResetPasswordMutation();
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [done, setDone] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const { rules, allMet } = usePasswordRules(password);
  useFocusFirstInvalid(formRef, attempt);

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

  if (done) {
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

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = allMet ? null : WEAK_PASSWORD;
    setPasswordError(found);
    setFailure(null);
    if (found) {
      setAttempt((count) => count + 1);
      return;
    }
    try {
      await reset({ oobCode, newPassword: password }).unwrap();
      setDone(true);
    } catch (caught) {
      setFailure(asApiError(caught));
    }
  };

  return (
    <form ref={formRef} noValidate onSubmit={(event) => void submit(event)} aria-label="Criar senha nova">
      {failure ? (
        <FormAlert>
          {errorMessage(failure)}
          {failure.code === 'expired-action-code' ? (
            <>
              {' '}
              <Link to={paths.auth.recover.path}>Pedir um novo link</Link>
            </>
          ) : null}
        </FormAlert>
      ) : null}
      <NewPasswordField
        label="Senha nova"
        value={password}
        onChange={setPassword}
        rules={rules}
        error={passwordError}
      />
      <button type="submit" className="button big" disabled={isLoading}>
        {isLoading ? 'Salvando…' : 'Salvar senha nova'}
      </button>
    </form>
  );
}
