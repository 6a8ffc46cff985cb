import { useSearchParams } from 'react-router';

import { paths } from '@/config/paths';
import { asApiError } from '@/lib/api-error';
import { roleLabel } from '@/lib/roles';
import { safeContinuePath } from '@/utils/continue-path';

import { useCheckInvitationQuery } from '../api/check-invitation';

/** The invitation code when the page will continue to /painel/convite?codigo=…, else null. */
function invitationCode(continueParam: string | null): string | null {
  const continueTo = safeContinuePath(continueParam);
  if (continueTo === null) return null;
  const url = new URL(continueTo, 'https://balcao.invalid');
  if (url.pathname !== paths.panel.invitation) return null;
  return url.searchParams.get(paths.panel.invitationCodeParam) || null;
}

export interface InvitationNoticeProps {
  /** The page it sits on: the sentence starts with what that page does. */
  page: 'log-in' | 'sign-up';
}

/**
 * On /entrar and /criar-conta when they will continue to an invitation: as what, and that signing
 * in (or creating the account) is how to accept. Who invites is named only when the server says so
 * (to a caller signed in with the invited address); a visitor holding the link, who may not be the
 * invitee, is not told. A spent link says so here, before anyone signs in for nothing.
 */
export function InvitationNotice({ page }: InvitationNoticeProps) {
  const [searchParams] = useSearchParams();
  const code = invitationCode(searchParams.get(paths.continueParam));
  if (code === null) return null;
  return <Notice code={code} page={page} />;
}

function Notice({ code, page }: { code: string; page: InvitationNoticeProps['page'] }) {
  const { data: offer, error, isLoading } = useCheckInvitationQuery(code);
  const next =
    page === 'log-in'
      ? 'Entre ou crie sua conta para aceitar.'
      : 'Crie sua conta (ou entre, se já tem uma) para aceitar.';
  if (isLoading) return null;
  if (error !== undefined && asApiError(error).code === 'expired-action-code') {
    return (
      <p className="alert error" role="alert">
        Este convite expirou, já foi usado ou foi cancelado. Peça um novo a quem convidou você.
      </p>
    );
  }
  if (offer === undefined) {
    // The check failed for another reason (network): the link is still an invitation.
    return (
      <p className="notice invitation-notice" role="status">
        Você abriu um convite para uma conta do Balcão. {next}
      </p>
    );
  }
  const role = roleLabel(offer.role).toLowerCase();
  return (
    <p className="notice invitation-notice" role="status">
      {offer.displayName ? (
        <>
          Você foi convidado para a conta <strong>{offer.displayName}</strong> como {role}.
        </>
      ) : (
        `Você foi convidado para uma conta do Balcão como ${role}.`
      )}{' '}
      {next}
    </p>
  );
}
