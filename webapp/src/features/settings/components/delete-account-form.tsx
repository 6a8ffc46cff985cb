import { useState } from 'react';
import { z } from 'zod';

import { ConfirmBox } from '@/components/confirm-box';
import { FormAlert } from '@/components/form-alert';
import { PasswordField } from '@/components/password-field';
import { useAppDispatch } from '@/hooks/store-hooks';
import { useApiForm } from '@/hooks/use-api-form';
import { signedOut } from '@/lib/credentials';
import { WRONG_CURRENT_PASSWORD, errorMessage } from '@/lib/error-messages';
import { requiredSecret } from '@/utils/field-rules';

import { useDeleteAccountMutation } from '../api/delete-account';

const deleteAccountSchema = z.object({ password: requiredSecret() });

/**
 * Deleting the account: what is erased, what the law makes Balcão keep, the password asked again,
 * then a second, explicit step naming the account. Afterwards the session is over and
 * /painel/conta-excluida says so.
 */
export function DeleteAccountForm({ email }: { email: string }) {
  const dispatch = useAppDispatch();
  const [deleteAccount, { isLoading }] = useDeleteAccountMutation();
  // The first submit only checks the password field and asks; the second one deletes.
  const [reviewing, setReviewing] = useState(false);
  const form = useApiForm({
    schema: deleteAccountSchema,
    defaultValues: { password: '' },
    send: async (confirmation) => {
      if (!reviewing) {
        setReviewing(true);
        return true;
      }
      try {
        await deleteAccount(confirmation).unwrap();
      } catch (caught) {
        // A wrong password goes back to the first step, its message under the field.
        setReviewing(false);
        throw caught;
      }
      // The server already ended every session and cleared the cookie. Forget the session here at
      // once (drops whatever was cached, stops the refresh timer): the dashboard's guard then takes
      // the person to /painel/conta-excluida, which names the account and says what happened.
      dispatch(signedOut({ reason: 'account-deleted', email }));
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
      <p>
        Os registros de acesso (data, hora e endereço IP de cada acesso) por 6 meses, como exige o Marco Civil da
        Internet (Lei 12.965/2014, art. 15). Eles ficam em sigilo, só são entregues por ordem judicial e, passado o
        prazo, são apagados.
      </p>
      <h3>O que continua funcionando</h3>
      <p>
        Os QR codes já criados: uma placa impressa ainda pode ser paga, e a página de pagamento de cada um continua no
        ar. Eles guardam só o que o próprio código mostra (chave Pix, nome e cidade de quem recebe, valor), sem o seu
        e-mail, nome ou telefone.
      </p>
      <form {...form.formProps} aria-label="Excluir conta">
        {form.failure ? <FormAlert takeFocus>{errorMessage(form.failure)}</FormAlert> : null}
        <PasswordField
          label="Sua senha"
          autoComplete="current-password"
          hint="Digite a senha de novo para confirmar que é você e que quer excluir a conta."
          {...form.field('password')}
        />
        {reviewing ? (
          <ConfirmBox
            confirmType="submit"
            confirmLabel="Sim, excluir minha conta para sempre"
            busyLabel="Excluindo…"
            busy={isLoading}
            onCancel={() => setReviewing(false)}
            cancelLabel="Não, manter minha conta"
          >
            <p>
              <strong>Excluir a conta {email} para sempre?</strong>
            </p>
            <p>
              Seu nome, e-mail, telefone e foto, o nome e a cidade padrão dos QR codes e o acesso das contas extras
              serão apagados, e você sairá de todos os aparelhos. Não dá para desfazer.
            </p>
          </ConfirmBox>
        ) : (
          <button type="submit" className="button danger">
            Excluir minha conta
          </button>
        )}
      </form>
    </>
  );
}
