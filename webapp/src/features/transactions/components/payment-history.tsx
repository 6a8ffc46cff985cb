import { FormAlert } from '@/components/form-alert';
import { PageStatus } from '@/components/page-status';
import { asApiError } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';

import { useGetPaymentHistoryQuery } from '../api/payments';
import { actorLabel, eventSentence, sourceLabel } from '../utils/labels';
import { saoPauloDateTime } from '../utils/periods';

const PRECISE = new Intl.DateTimeFormat('pt-BR', {
  timeZone: 'America/Sao_Paulo',
  dateStyle: 'short',
  timeStyle: 'medium',
});

function precise(instant: string): string {
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? saoPauloDateTime(instant) : PRECISE.format(date);
}

/** The payment's audit trail, event by event, as the event log holds it. */
export function PaymentHistory({ accountId, reference }: { accountId: string; reference: string }) {
  const { data, error, isLoading } = useGetPaymentHistoryQuery({ accountId, reference });
  if (data === undefined) {
    if (isLoading) return <PageStatus>Carregando o histórico…</PageStatus>;
    return (
      <FormAlert>
        Não foi possível carregar o histórico. {error === undefined ? null : errorMessage(asApiError(error))}
      </FormAlert>
    );
  }
  return (
    <ol className="payment-history">
      {data.map((entry) => (
        <li key={entry.eventId}>
          <p className="what">{eventSentence(entry)}</p>
          <dl className="facts">
            <dt>Quando</dt>
            <dd>{precise(entry.at)}</dd>
            {entry.source === undefined ? null : (
              <>
                <dt>Origem</dt>
                <dd>{sourceLabel(entry.source)}</dd>
              </>
            )}
            <dt>Por</dt>
            <dd>{actorLabel(entry.by)}</dd>
            <dt>Correlação</dt>
            <dd className="key">{entry.correlationId ?? 'não registrada'}</dd>
            <dt>Causa</dt>
            <dd className="key">{entry.causationId ?? 'nenhuma registrada'}</dd>
            <dt>Evento</dt>
            <dd className="key">
              nº {entry.version} · {entry.eventId}
            </dd>
          </dl>
        </li>
      ))}
    </ol>
  );
}
