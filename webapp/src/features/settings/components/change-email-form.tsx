import { type SubmitEvent, useRef, useState } from 'react';

import { FormAlert } from '@/components/form-alert';
import { PasswordField } from '@/components/password-field';
import { TextField } from '@/components/text-field';
import { useFocusFirstInvalid } from '@/hooks/use-focus-first-invalid';
import { asApiError } from '@/lib/api-error';
import { WRONG_CURRENT_PASSWORD, errorMessage } from '@/lib/error-messages';
import { checkEmail, checkRequired } from '@/utils/field-rules';

import { useChangeEmailMutation } from '../api/change-email';
import { useSendVerificationMutation } from '../api/send-verification';

interface FieldErrors {
  newEmail: string | null;
  password: string | null;
}

const NO_ERRORS: FieldErrors = { newEmail: null, password: null };

export const SAME_EMAIL = 'Este já é o e-mail da sua conta.';
export const EMAIL_TAKEN = 'Este e-mail já é usado por outra conta do Balcão.';

/** The account's address, whether it is confirmed, and the form to move the account to another one. */
export function ChangeEmailForm({ email, emailVerified }: { email: string; emailVerified: boolean }) {
  const [changeEmail, { isLoading }] = useChangeEmailMutation();
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [failure, setFailure] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, attempt);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = newEmail.trim();
    const found: FieldErrors = {
      newEmail: checkEmail(typed) ?? (typed.toLowerCase() === email.toLowerCase() ? SAME_EMAIL : null),
      password: checkRequired(password),
    };
    setErrors(found);
    setFailure(null);
    setSentTo(null);
    if (found.newEmail || found.password) {
      setAttempt((count) => count + 1);
      return;
    }
    try {
      await changeEmail({ newEmail: typed, password }).unwrap();
      setSentTo(typed);
      setNewEmail('');
      setPassword('');
    } catch (caught) {
      const error = asApiError(caught);
      if (error.code === 'wrong-password') setErrors({ ...NO_ERRORS, password: WRONG_CURRENT_PASSWORD });
      else if (error.code === 'email-already-in-use') setErrors({ ...NO_ERRORS, newEmail: EMAIL_TAKEN });
      else {
        setFailure(errorMessage(error));
        return;
      }
      setAttempt((count) => count + 1);
    }
  };

  return (
    <>
      <p>
        E-mail da conta: <strong>{email}</strong>{' '}
        {emailVerified ? <span className="badge">confirmado</span> : <span className="badge warn">não confirmado</span>}
      </p>
      {emailVerified ? null : <ResendVerification email={email} />}
      <form ref={formRef} noValidate onSubmit={(event) => void submit(event)} aria-label="Trocar e-mail">
        {failure ? <FormAlert>{failure}</FormAlert> : null}
        {sentTo ? (
          <p className="notice" role="status">
            Enviamos um link para <strong>{sentTo}</strong>. Abra o link para confirmar o novo endereço: só então o
            e-mail da conta muda. Até lá, continue entrando com {email}.
          </p>
        ) : null}
        <TextField
          label="Novo e-mail"
          name="newEmail"
          type="email"
          autoComplete="email"
          inputMode="email"
          autoCapitalize="off"
          value={newEmail}
          onChange={(event) => setNewEmail(event.target.value)}
          error={errors.newEmail}
        />
        <PasswordField
          label="Sua senha"
          name="password"
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
          error={errors.password}
          hint="Para confirmar que é você."
        />
        <button type="submit" className="button" disabled={isLoading}>
          {isLoading ? 'Enviando…' : 'Trocar e-mail'}
        </button>
      </form>
    </>
  );
}

/** Sends the confirmation link again, for an address not confirmed yet. */
function ResendVerification({ email }: { email: string }) {
  const [send, { isLoading }] = useSendVerificationMutation();
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  const resend = async () => {
    setOutcome(null);
    try {
      await send().unwrap();
      setOutcome({ ok: true, text: `Enviamos um novo link de confirmação para ${email}.` });
    } catch (caught) {
      setOutcome({ ok: false, text: errorMessage(asApiError(caught)) });
    }
  };

  return (
    <div className="resend">
      <button type="button" className="button secondary small" onClick={() => void resend()} disabled={isLoading}>
        {isLoading ? 'Enviando…' : 'Reenviar o link de confirmação'}
      </button>
      {outcome ? (
        <p className={outcome.ok ? 'notice' : 'field-error'} role={outcome.ok ? 'status' : 'alert'}>
          {outcome.text}
        </p>
      ) : null}
    </div>
  );
}
