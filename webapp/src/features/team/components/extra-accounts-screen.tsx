import { useState } from 'react';
import { Link } from 'react-router';

import { ConfirmBox } from '@/components/confirm-box';
import { FormAlert } from '@/components/form-alert';
import { FormOutcome } from '@/components/form-outcome';
import { PageStatus } from '@/components/page-status';
import { PageTitle } from '@/components/page-title';
import { WorkspaceLine } from '@/components/workspace-line';
import { paths } from '@/config/paths';
import { asApiError } from '@/lib/api-error';
import { WORKSPACE_NOT_FOUND, errorMessage, isForbidden, isNotFound } from '@/lib/error-messages';
import { roleLabel } from '@/lib/roles';
import type { CurrentWorkspace } from '@/types/workspace';
import { formatDate } from '@/utils/dates';

import { type Member, useListMembersQuery } from '../api/list-members';
import { useRevokeMemberMutation } from '../api/revoke-member';

export const MEMBERS_FORBIDDEN = 'Seu papel nesta conta não permite ver as contas extras.';

const STATUS_LABELS: Record<Member['status'], string> = {
  invited: 'Convite enviado',
  active: 'Ativa',
};

/** /painel/contas-extras: the people invited to the selected account, and revoking them (owner only). */
export function ExtraAccountsScreen({ workspace }: { workspace: CurrentWorkspace }) {
  const { data: members, error, isLoading } = useListMembersQuery(workspace.accountId);
  const [revoke, { isLoading: revoking }] = useRevokeMemberMutation();
  const [confirming, setConfirming] = useState<Member | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const apiError = error === undefined ? undefined : asApiError(error);
  const forbidden = apiError !== undefined && isForbidden(apiError);

  const confirmRevoke = async (member: Member) => {
    setFailure(null);
    try {
      await revoke({ accountId: workspace.accountId, invitationId: member.invitationId }).unwrap();
      setNotice(
        member.status === 'invited'
          ? `Convite para ${member.email} cancelado.`
          : `${member.email} não tem mais acesso a esta conta.`,
      );
      setConfirming(null);
    } catch (caught) {
      setFailure(
        `${member.status === 'invited' ? 'Não foi possível cancelar o convite.' : 'Não foi possível revogar o acesso.'} ${errorMessage(asApiError(caught))}`,
      );
    }
  };

  let body;
  if (members !== undefined) {
    body =
      members.length === 0 ? (
        <p>
          Nenhuma conta extra por enquanto. Convide quem trabalha com você para criar QR codes e placas Pix nesta conta.
        </p>
      ) : (
        <table className="data-table">
          <caption className="visually-hidden">Contas extras desta conta</caption>
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Papel</th>
              <th scope="col">Situação</th>
              <th scope="col">Desde</th>
              <th scope="col">
                <span className="visually-hidden">Ações</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.map((member) => (
              <tr key={member.invitationId}>
                <td>{member.email}</td>
                <td>{roleLabel(member.role)}</td>
                <td>{STATUS_LABELS[member.status]}</td>
                <td>{formatDate(member.joinedAt ?? member.invitedAt)}</td>
                <td>
                  <button
                    type="button"
                    className="button secondary small"
                    aria-label={
                      member.status === 'invited'
                        ? `Cancelar o convite para ${member.email}`
                        : `Revogar ${member.email}`
                    }
                    onClick={() => {
                      setNotice(null);
                      setFailure(null);
                      setConfirming(member);
                    }}
                  >
                    {member.status === 'invited' ? 'Cancelar convite' : 'Revogar'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      );
  } else if (isLoading) {
    body = <PageStatus>Carregando as contas extras…</PageStatus>;
  } else if (apiError !== undefined && forbidden) {
    body = <p className="notice">{MEMBERS_FORBIDDEN}</p>;
  } else if (apiError !== undefined && isNotFound(apiError)) {
    body = <FormAlert>{WORKSPACE_NOT_FOUND}</FormAlert>;
  } else {
    body = (
      <FormAlert>
        Não foi possível carregar as contas extras. {apiError === undefined ? null : errorMessage(apiError)}
      </FormAlert>
    );
  }

  return (
    <section aria-labelledby="titulo-tela">
      <PageTitle>Contas extras</PageTitle>
      <h1 id="titulo-tela" tabIndex={-1}>
        Contas extras
      </h1>
      <WorkspaceLine workspace={workspace} />
      <p className="lead">Pessoas que trabalham nesta conta, cada uma com o seu login e o seu papel.</p>
      {forbidden ? null : (
        <p>
          <Link className="button" to={paths.panel.newExtraAccount}>
            Criar conta extra
          </Link>
        </p>
      )}
      {notice ? (
        // Focused: the confirmation it replaces had the focus, and this is what happened.
        <FormOutcome as="p" key={notice}>
          {notice}
        </FormOutcome>
      ) : null}
      {failure ? <FormAlert>{failure}</FormAlert> : null}
      {body}
      {confirming ? (
        <ConfirmBox
          confirmLabel={confirming.status === 'invited' ? 'Sim, cancelar o convite' : 'Sim, revogar'}
          busyLabel={confirming.status === 'invited' ? 'Cancelando…' : 'Revogando…'}
          busy={revoking}
          onConfirm={() => void confirmRevoke(confirming)}
          onCancel={() => setConfirming(null)}
        >
          <p>
            {confirming.status === 'invited'
              ? `Cancelar o convite para ${confirming.email}? O link do e-mail deixa de funcionar.`
              : `Revogar o acesso de ${confirming.email}? A pessoa deixa de ver esta conta na hora.`}
          </p>
        </ConfirmBox>
      ) : null}
    </section>
  );
}
