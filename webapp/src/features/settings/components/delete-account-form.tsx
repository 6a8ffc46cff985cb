import { type SubmitEvent, useRef, useState } from 'react';

import { FormAlert } from '@/components/form-alert';
import { PasswordField } from '@/components/password-field';
import { paths } from '@/config/paths';
import { useAppDispatch } from '@/hooks/store-hooks';
import { useFocusFirstInvalid } from '@/hooks/use-focus-first-invalid';
import { asApiError } from '@/lib/api-error';
import { browserNavigation } from '@/lib/browser-navigation';
import { signedOut } from '@/lib/credentials';
import { WRONG_CURRENT_PASSWORD, errorMessage } from '@/lib/error-messages';
import { checkRequired } from '@/utils/field-rules';

import { useDeleteAccountMutation } from '../api/delete-account';

/**
 * Deleting the account: what is erased, what the law makes Balcão keep, and the password asked
 * again. Afterwards the session is over and the visitor lands on the public home page.
 */
export function DeleteAccountForm() {
  const dispatch = useAppDispatch();
  const [deleteAccount, { isLoading }] = useDeleteAccountMutation();
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, attempt);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = checkRequired(password);
    setPasswordError(found);
    setFailure(null);
    if (found) {
      setAttempt((count) => count + 1);
      return;
    }
    try {
      await deleteAccount({ password }).unwrap();
    } catch (caught) {
      const error = asApiError(caught);
      if (error.code === 'wrong-password') {
        setPasswordError(WRONG_CURRENT_PASSWORD);
        setAttempt((count) => count + 1);
      } else {
        setFailure(errorMessage(error));
      }
      return;
    }
    // The server already ended every session and cleared the cookie: forget this one here too
    // (drops whatever was cached), then leave the dashboard for the public home page.
    dispatch(signedOut({ reason: 'account-deleted' }));
    browserNavigation.goTo(paths.server.home);
  };

  return (
    <>
      <p>
        <strong>Excluir a conta não tem volta.</strong> Antes de continuar, veja o que acontece:
      </p>
      <h3>O que apagamos</h3>
      <ul>
        <li>seu nome, e-mail, telefone e foto;</li>
        <li>o nome e a cidade padrão dos QR codes;</li>
        <li>
          o acesso das contas extras que você convidou, e o seu acesso às contas de outras pessoas em que você é conta
          extra;
        </li>
        <li>todas as sessões: você sai de todos os aparelhos e não consegue mais entrar com este e-mail e senha.</li>
      </ul>
      <h3>O que a lei nos obriga a guardar</h3>
      <ul>
        <li>
          os registros de acesso (data, hora e endereço IP de cada acesso) por 6 meses, como exige o Marco Civil da
          Internet (Lei 12.965/2014, art. 15). Eles ficam em sigilo e só são entregues por ordem judicial;
        </li>
        <li>os registros das transações feitas com os seus QR codes, pelo prazo que a lei exigir.</li>
      </ul>
      <p>Passados esses prazos, esses registros também são apagados.</p>
      <form ref={formRef} noValidate onSubmit={(event) => void submit(event)} aria-label="Excluir conta">
        {failure ? <FormAlert>{failure}</FormAlert> : null}
        <PasswordField
          label="Sua senha"
          name="password"
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
          error={passwordError}
          hint="Digite a senha de novo para confirmar que é você e que quer excluir a conta."
        />
        <button type="submit" className="button danger" disabled={isLoading}>
          {isLoading ? 'Excluindo…' : 'Excluir minha conta'}
        </button>
      </form>
    </>
  );
}
