import { useState } from 'react';
import { z } from 'zod';

import { FormAlert } from '@/components/form-alert';
import { PasswordField } from '@/components/password-field';
import { TextField } from '@/components/text-field';
import { useApiForm } from '@/hooks/use-api-form';
import { asApiError } from '@/lib/api-error';
import { WRONG_CURRENT_PASSWORD, errorMessage } from '@/lib/error-messages';
import { emailAddress, requiredSecret } from '@/utils/field-rules';

import { useChangeEmailMutation } from '../api/change-email';
import { useSendVerificationMutation } from '../api/send-verification';

export const SAME_EMAIL = 'Este já é o e-mail da sua conta.';
export const EMAIL_TAKEN = 'Este e-mail já é usado por outra conta do Balcão.';

const changeEmailSchema = (current: string) =>
  z.object({
    newEmail: emailAddress().refine((typed) => typed.toLowerCase() !== current.toLowerCase(), SAME_EMAIL),
    password: requiredSecret(),
  });

/** The account's address, whether it is confirmed, and the form to move the account to another one. */
export function ChangeEmailForm({ email, emailVerified }: { email: string; emailVerified: boolean }) {
  const [changeEmail, { isLoading }] = useChangeEmailMutation();
  const form = useApiForm({
    schema: changeEmailSchema(email),
    defaultValues: { newEmail: '', password: '' },
    send: async (change) => {
      await changeEmail(change).unwrap();
      return { sentTo: change.newEmail };
    },
    clearOnSuccess: ['newEmail', 'password'],
    codeFields: {
      'wrong-password': { field: 'password', message: WRONG_CURRENT_PASSWORD },
      'email-already-in-use': { field: 'newEmail', message: EMAIL_TAKEN },
    },
  });

  return (
    <>
      <p>
        E-mail da conta: <strong>{email}</strong>{' '}
        {emailVerified ? <span className="badge">confirmado</span> : <span className="badge warn">não confirmado</span>}
      </p>
      {emailVerified ? null : <ResendVerification email={email} />}
      <form {...form.formProps} aria-label="Trocar e-mail">
        {form.failure ? <FormAlert takeFocus>{errorMessage(form.failure)}</FormAlert> : null}
        {form.outcome ? (
          <p className="notice" role="status">
            Enviamos um link para <strong>{form.outcome.sentTo}</strong>. Abra o link para confirmar o novo endereço: só
            então o e-mail da conta muda. Até lá, continue entrando com {email}.
          </p>
        ) : null}
        <TextField
          label="Novo e-mail"
          type="email"
          autoComplete="email"
          inputMode="email"
          autoCapitalize="off"
          {...form.field('newEmail')}
        />
        <PasswordField
          label="Sua senha"
          autoComplete="current-password"
          hint="Para confirmar que é você."
          {...form.field('password')}
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
