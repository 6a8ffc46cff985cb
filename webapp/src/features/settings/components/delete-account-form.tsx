import { z } from 'zod';

import { FormAlert } from '@/components/form-alert';
import { PasswordField } from '@/components/password-field';
import { paths } from '@/config/paths';
import { useAppDispatch } from '@/hooks/store-hooks';
import { useApiForm } from '@/hooks/use-api-form';
import { browserNavigation } from '@/lib/browser-navigation';
import { signedOut } from '@/lib/credentials';
import { WRONG_CURRENT_PASSWORD, errorMessage } from '@/lib/error-messages';
import { requiredSecret } from '@/utils/field-rules';

import { useDeleteAccountMutation } from '../api/delete-account';

const deleteAccountSchema = z.object({ password: requiredSecret() });

/**
 * Deleting the account: what is erased, what the law makes Balcão keep, and the password asked
 * again. Afterwards the session is over and the visitor lands on the public home page.
 */
export function DeleteAccountForm() {
  const dispatch = useAppDispatch();
  const [deleteAccount, { isLoading }] = useDeleteAccountMutation();
  const form = useApiForm({
    schema: deleteAccountSchema,
    defaultValues: { password: '' },
    send: async (confirmation) => {
      await deleteAccount(confirmation).unwrap();
      // The server already ended every session and cleared the cookie: forget this one here too
      // (drops whatever was cached), then leave the dashboard for the public home page.
      dispatch(signedOut({ reason: 'account-deleted' }));
      browserNavigation.goTo(paths.server.home);
      return true;
    },
    codeFields: { 'wrong-password': { field: 'password', message: WRONG_CURRENT_PASSWORD } },
  });

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
      <form {...form.formProps} aria-label="Excluir conta">
        {form.failure ? <FormAlert>{errorMessage(form.failure)}</FormAlert> : null}
        <PasswordField
          label="Sua senha"
          autoComplete="current-password"
          hint="Digite a senha de novo para confirmar que é você e que quer excluir a conta."
          {...form.field('password')}
        />
        <button type="submit" className="button danger" disabled={isLoading}>
          {isLoading ? 'Excluindo…' : 'Excluir minha conta'}
        </button>
      </form>
    </>
  );
}
