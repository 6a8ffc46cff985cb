import { Navigate } from 'react-router';

import { paths } from '@/config/paths';
import { AuthLayout } from '@/features/auth/components/auth-layout';
import { selectDeletedEmail, selectSignOutReason } from '@/features/session/stores/session-slice';
import { useAppSelector } from '@/hooks/store-hooks';

/**
 * /painel/conta-excluida: the end of account deletion says what happened. Only after a deletion in
 * this tab: opened any other way (a typed address, a reload) it would claim something it cannot
 * know, so it sends the visitor to the sign-in page instead.
 */
export function Component() {
  const reason = useAppSelector(selectSignOutReason);
  const email = useAppSelector(selectDeletedEmail);
  if (reason !== 'account-deleted') return <Navigate to={paths.auth.logIn.path} replace />;
  return (
    <AuthLayout title="Conta excluída">
      <div role="status">
        <p className="lead">
          {email ? (
            <>
              A conta <strong>{email}</strong> foi excluída.
            </>
          ) : (
            'Sua conta foi excluída.'
          )}
        </p>
        <p>
          Apagamos seu nome, e-mail, telefone e foto, o nome e a cidade padrão dos QR codes e o acesso das contas
          extras. Você saiu de todos os aparelhos. Obrigado por ter usado o Balcão.
        </p>
      </div>
      <p className="actions">
        <a className="button" href={paths.server.home}>
          Ir para a página inicial
        </a>{' '}
        <a className="button secondary" href={paths.server.signMaker}>
          Criar placa Pix sem conta
        </a>
      </p>
    </AuthLayout>
  );
}
