import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';

import { FormAlert } from '@/components/form-alert';
import { PageStatus } from '@/components/page-status';
import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { useAppDispatch } from '@/hooks/store-hooks';
import { type ApiError, asApiError } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';
import { type Role, roleDescription, roleLabel } from '@/lib/roles';

import { useAcceptInvitationMutation } from '../api/accept-invitation';
import { useCurrentWorkspace } from '../hooks/use-current-workspace';
import { workspaceSelected } from '../stores/workspace-slice';

export const INCOMPLETE_INVITATION_LINK = 'Este link de convite está incompleto. Abra de novo o link do e-mail.';

/** The server's code for an invitation opened while signed in with another address. */
const FOR_ANOTHER_EMAIL = 'invitation-for-another-email';

type Progress =
  { state: 'accepting' } | { state: 'accepted'; accountId: string; role: Role } | { state: 'failed'; error: ApiError };

/**
 * The landing page of an invitation e-mail (`/painel/convite?codigo=…`): accepts it as soon as it
 * opens, switches the dashboard to that account and says which account and role it is.
 */
export function InvitationAcceptance({ code }: { code: string | null }) {
  const dispatch = useAppDispatch();
  const [accept] = useAcceptInvitationMutation();
  const [progress, setProgress] = useState<Progress>({ state: 'accepting' });
  const { workspaces } = useCurrentWorkspace();

  // A code works once: StrictMode's second effect run (and any re-render) must not send it again.
  const requested = useRef<string | null>(null);
  useEffect(() => {
    if (!code || requested.current === code) return;
    requested.current = code;
    accept({ code })
      .unwrap()
      .then(
        (joined) => {
          dispatch(workspaceSelected(joined.accountId));
          setProgress({ state: 'accepted', accountId: joined.accountId, role: joined.role });
        },
        (caught: unknown) => setProgress({ state: 'failed', error: asApiError(caught) }),
      );
  }, [code, accept, dispatch]);

  let body;
  if (!code) {
    body = <FormAlert>{INCOMPLETE_INVITATION_LINK}</FormAlert>;
  } else if (
    progress.state === 'accepting' ||
    // Accepted, but the list of accounts has not yet been fetched again: saying "Pronto!" now
    // would name no account, and the switcher would still show the old one.
    (progress.state === 'accepted' && !workspaces.some((workspace) => workspace.accountId === progress.accountId))
  ) {
    body = <PageStatus>Aceitando o convite…</PageStatus>;
  } else if (progress.state === 'failed') {
    body = (
      <>
        <FormAlert>{errorMessage(progress.error)}</FormAlert>
        {progress.error.code === FOR_ANOTHER_EMAIL ? (
          <p>
            Só a conta do e-mail que recebeu o convite pode aceitá-lo. Saia (botão “Sair”, no alto da página) e abra de
            novo o link do e-mail: ele pede para você entrar com esse e-mail ou, se ainda não tem conta com ele, criar
            uma.
          </p>
        ) : null}
        <p>
          {progress.error.code === 'expired-action-code'
            ? 'Peça a quem convidou você para enviar um convite novo. '
            : null}
          <Link to={paths.panel.home}>Ir para o painel</Link>
        </p>
      </>
    );
  } else {
    const joined = workspaces.find((workspace) => workspace.accountId === progress.accountId);
    const rights = roleDescription(progress.role);
    body = (
      <div role="status">
        <p>
          Pronto! Agora você faz parte da conta {joined ? <strong>{joined.displayName}</strong> : null} como{' '}
          <strong>{roleLabel(progress.role)}</strong>
          {rights ? `: ${rights}` : null}.
        </p>
        <p>O painel já está nesta conta. Para voltar à sua, escolha outra em “Conta em uso”, no alto da página.</p>
        <p>
          <Link className="button" to={paths.panel.qrCodes}>
            Ir para os QR codes
          </Link>
        </p>
      </div>
    );
  }

  return (
    <section aria-labelledby="titulo-tela">
      <PageTitle>Convite</PageTitle>
      <h1 id="titulo-tela" tabIndex={-1}>
        Convite para uma conta
      </h1>
      {body}
    </section>
  );
}
