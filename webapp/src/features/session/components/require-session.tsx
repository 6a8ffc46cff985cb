import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';

import { PageStatus } from '@/components/page-status';
import { paths } from '@/config/paths';
import { useAppDispatch, useAppSelector } from '@/hooks/store-hooks';

import { restoreRequested, selectSessionStatus, selectSignOutReason } from '../stores/session-slice';

/**
 * Shows `children` to signed-in visitors only. Others go to /entrar, which brings them back here
 * after signing in — unless they just clicked "Sair".
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const status = useAppSelector(selectSessionStatus);
  const reason = useAppSelector(selectSignOutReason);
  const dispatch = useAppDispatch();
  const location = useLocation();

  switch (status) {
    case 'restoring':
      return (
        <main id="conteudo" className="wrap">
          <PageStatus>Carregando sua conta…</PageStatus>
        </main>
      );
    case 'unreachable':
      return (
        <main id="conteudo" className="wrap narrow">
          <h1>Sem conexão</h1>
          <p role="alert">
            Não foi possível conectar para abrir sua conta. Verifique sua internet; vamos tentar de novo
            automaticamente.
          </p>
          <button type="button" className="button" onClick={() => dispatch(restoreRequested())}>
            Tentar agora
          </button>
        </main>
      );
    case 'signed-out': {
      // A deleted account's end page says what happened (the deletion form goes there too, with the
      // account's address; whichever arrives, the page is the same).
      if (reason === 'account-deleted') return <Navigate to={paths.panel.accountDeleted} replace />;
      const here = `${location.pathname}${location.search}${location.hash}`;
      // Whoever signed out on purpose is not sent back here afterwards.
      const leftOnPurpose = reason === 'user';
      const continueTo = leftOnPurpose || here === paths.panel.home ? null : here;
      return <Navigate to={paths.auth.logIn.getHref(continueTo)} replace />;
    }
    case 'signed-in':
      return children;
  }
}
