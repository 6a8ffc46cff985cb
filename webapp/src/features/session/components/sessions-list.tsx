import { useState } from 'react';

import { ConfirmBox } from '@/components/confirm-box';
import { FormAlert } from '@/components/form-alert';
import { FormOutcome } from '@/components/form-outcome';
import { PageStatus } from '@/components/page-status';
import { asApiError } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';
import { formatDateTime } from '@/utils/dates';

import { useEndSessionMutation } from '../api/end-session';
import { type AuthSession, useListSessionsQuery } from '../api/list-sessions';
import { describeUserAgent } from '../utils/describe-user-agent';

/**
 * Every device signed in to the account, this one marked "este dispositivo". Any other can be
 * signed out, one by one or all at once, after a second step naming the device(s); this one signs
 * out with "Sair".
 */
export function SessionsList() {
  const { data: sessions, error, isLoading, refetch } = useListSessionsQuery();
  const [endSession] = useEndSessionMutation();
  const [ending, setEnding] = useState<ReadonlySet<string>>(new Set());
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<AuthSession[] | null>(null);

  if (sessions === undefined) {
    if (isLoading) return <PageStatus>Carregando os aparelhos…</PageStatus>;
    return (
      <>
        <FormAlert>
          Não foi possível carregar os aparelhos. {error === undefined ? null : errorMessage(asApiError(error))}
        </FormAlert>
        <button type="button" className="button secondary small" onClick={() => void refetch()}>
          Tentar de novo
        </button>
      </>
    );
  }

  const others = sessions.filter((session) => !session.current);

  const end = async (targets: AuthSession[]) => {
    setFailure(null);
    setNotice(null);
    setEnding(new Set(targets.map((session) => session.id)));
    // One DELETE per device: the API ends sessions one at a time.
    const results = await Promise.allSettled(targets.map((session) => endSession(session.id).unwrap()));
    setEnding(new Set());
    const failed = results.find((result) => result.status === 'rejected');
    if (failed !== undefined) {
      setFailure(`Não foi possível encerrar. ${errorMessage(asApiError(failed.reason))}`);
      return;
    }
    setConfirming(null);
    setNotice(targets.length === 1 ? 'Sessão encerrada.' : 'Todas as outras sessões foram encerradas.');
  };

  const ask = (targets: AuthSession[]) => {
    setFailure(null);
    setNotice(null);
    setConfirming(targets);
  };

  const question = (targets: AuthSession[]) => {
    const [only] = targets;
    if (targets.length === 1 && only !== undefined) {
      return `Encerrar a sessão de ${describeUserAgent(only.userAgent)}, último uso em ${formatDateTime(only.lastUsedAt)}? Quem estiver nesse aparelho precisará entrar de novo.`;
    }
    return `Encerrar as ${targets.length} outras sessões? Todos os outros aparelhos precisarão entrar de novo; este continua aberto.`;
  };

  return (
    <>
      <ul className="sessions" aria-label="Aparelhos conectados">
        {sessions.map((session) => (
          <li key={session.id} className="session">
            <p className="session-name">
              <strong>{describeUserAgent(session.userAgent)}</strong>
              {session.current ? <span className="badge">este dispositivo</span> : null}
            </p>
            <p className="hint">
              Entrou em {formatDateTime(session.createdAt)} · último uso em {formatDateTime(session.lastUsedAt)}
            </p>
            {session.current ? null : (
              <button
                type="button"
                className="button secondary small"
                disabled={ending.has(session.id)}
                onClick={() => ask([session])}
                aria-label={`Encerrar a sessão: ${describeUserAgent(session.userAgent)}, último uso em ${formatDateTime(session.lastUsedAt)}`}
              >
                {ending.has(session.id) ? 'Encerrando…' : 'Encerrar sessão'}
              </button>
            )}
          </li>
        ))}
      </ul>
      {others.length > 0 ? (
        <button type="button" className="button secondary" disabled={ending.size > 0} onClick={() => ask(others)}>
          Encerrar todas as outras sessões
        </button>
      ) : null}
      {/* Under the buttons, where the confirmation was: the answer shows where the eye already is. */}
      {failure ? <FormAlert>{failure}</FormAlert> : null}
      {notice ? (
        <FormOutcome as="p" key={notice}>
          {notice}
        </FormOutcome>
      ) : null}
      {confirming ? (
        <ConfirmBox
          confirmLabel={confirming.length === 1 ? 'Sim, encerrar a sessão' : 'Sim, encerrar as outras sessões'}
          busyLabel="Encerrando…"
          busy={ending.size > 0}
          onConfirm={() => void end(confirming)}
          onCancel={() => setConfirming(null)}
        >
          <p>{question(confirming)}</p>
        </ConfirmBox>
      ) : null}
      {others.length === 0 ? <p className="hint">Sua conta só está aberta neste aparelho.</p> : null}
      <p className="hint">Para sair deste aparelho, use “Sair”, no alto da página.</p>
    </>
  );
}
