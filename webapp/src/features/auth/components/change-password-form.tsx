import { type SubmitEvent, useRef, useState } from 'react';

import { FormAlert } from '@/components/form-alert';
import { PasswordField } from '@/components/password-field';
import { useFocusFirstInvalid } from '@/hooks/use-focus-first-invalid';
import { asApiError } from '@/lib/api-error';
import { WRONG_CURRENT_PASSWORD, errorMessage } from '@/lib/error-messages';
import { WEAK_PASSWORD, checkRequired } from '@/utils/field-rules';

import { useChangePasswordMutation } from '../api/change-password';
import { usePasswordRules } from '../hooks/use-password-rules';
import { NewPasswordField } from './new-password-field';

interface FieldErrors {
  currentPassword: string | null;
  newPassword: string | null;
}

const NO_ERRORS: FieldErrors = { currentPassword: null, newPassword: null };

/** For a signed-in person: the current password, and a new one checked live against the policy. */
export function ChangePasswordForm() {
  const [changePassword, { isLoading }] = useChangePasswordMutation();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const { rules, allMet } = usePasswordRules(newPassword);
  useFocusFirstInvalid(formRef, attempt);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: FieldErrors = {
      currentPassword: checkRequired(currentPassword),
      newPassword: allMet ? null : WEAK_PASSWORD,
    };
    setErrors(found);
    setFailure(null);
    setDone(false);
    if (found.currentPassword || found.newPassword) {
      setAttempt((count) => count + 1);
      return;
    }
    try {
      await changePassword({ currentPassword, newPassword }).unwrap();
      setDone(true);
      setCurrentPassword('');
      setNewPassword('');
    } catch (caught) {
      const error = asApiError(caught);
      if (error.code === 'wrong-password') setErrors({ ...NO_ERRORS, currentPassword: WRONG_CURRENT_PASSWORD });
      // The server's message says what the policy still misses.
      else if (error.code === 'weak-password') setErrors({ ...NO_ERRORS, newPassword: errorMessage(error) });
      else {
        setFailure(errorMessage(error));
        return;
      }
      setAttempt((count) => count + 1);
    }
  };

  return (
    <form ref={formRef} noValidate onSubmit={(event) => void submit(event)} aria-label="Trocar senha">
      {failure ? <FormAlert>{failure}</FormAlert> : null}
      {done ? (
        <p className="notice" role="status">
          Senha alterada. Use a senha nova na próxima vez que entrar.
        </p>
      ) : null}
      <PasswordField
        label="Senha atual"
        name="currentPassword"
        value={currentPassword}
        onChange={setCurrentPassword}
        autoComplete="current-password"
        error={errors.currentPassword}
      />
      <NewPasswordField
        label="Senha nova"
        value={newPassword}
        onChange={setNewPassword}
        rules={rules}
        error={errors.newPassword}
      />
      <button type="submit" className="button" disabled={isLoading}>
        {isLoading ? 'Salvando…' : 'Trocar senha'}
      </button>
    </form>
  );
}
