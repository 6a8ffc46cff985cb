import { formatDate, formatDateTime } from '@/utils/dates';

import type { BankConnection } from '../api/bank-connections';

const ENVIRONMENT: Record<BankConnection['environment'], string> = {
  producao: 'produção',
  homologacao: 'homologação',
};

/** Days from now until `instant` (negative once it has passed). */
function daysUntil(instant: string, now: number): number {
  return Math.floor((new Date(instant).getTime() - now) / 86_400_000);
}

/** What a connected key's card says: the bank, the certificate, the webhook and the last test. */
export function ConnectionStatus({ connection, now }: { connection: BankConnection; now: number }) {
  const left = daysUntil(connection.certificateNotAfter, now);
  const { webhook, lastTest, catchUp } = connection;
  return (
    <dl className="facts bank-facts">
      <dt>Banco</dt>
      <dd>
        {connection.bankName} ({ENVIRONMENT[connection.environment]})
      </dd>
      <dt>Conectado em</dt>
      <dd>{formatDateTime(connection.connectedAt)}</dd>
      <dt>Certificado</dt>
      <dd className={left <= 30 ? 'warning' : undefined}>
        {left < 0
          ? `Venceu em ${formatDate(connection.certificateNotAfter)}: envie o novo certificado do banco.`
          : `Válido até ${formatDate(connection.certificateNotAfter)}${left <= 30 ? ` (faltam ${left} dias: peça o novo ao banco)` : ''}`}
      </dd>
      <dt>Aviso de pagamentos</dt>
      <dd className={webhook.state === 'failed' ? 'warning' : undefined}>
        {webhook.state === 'registered' && webhook.at
          ? `Registrado no banco em ${formatDateTime(webhook.at)}: os Pix desta chave chegam ao Balcão na hora.`
          : null}
        {webhook.state === 'failed' ? `Não registrado: ${webhook.message ?? 'o banco recusou.'}` : null}
        {webhook.state === 'not-registered' ? 'Ainda não registrado no banco.' : null}
      </dd>
      <dt>Conferência no banco</dt>
      <dd className={catchUp?.failingSince ? 'warning' : undefined}>
        {catchUp === null
          ? 'A primeira conferência dos Pix recebidos no banco acontece em alguns minutos.'
          : catchUp.failingSince
            ? `Sem contato com o banco desde ${formatDateTime(catchUp.failingSince)}: ${catchUp.lastProblem ?? ''} O Balcão tenta de novo sozinho.`
            : catchUp.lastSuccessAt
              ? `Em dia: conferido em ${formatDateTime(catchUp.lastSuccessAt)}. Pix cujo aviso não chegou entram sozinhos.`
              : 'A primeira conferência dos Pix recebidos no banco acontece em alguns minutos.'}
      </dd>
      <dt>Último teste</dt>
      <dd className={lastTest && !lastTest.ok ? 'warning' : undefined}>
        {lastTest === null
          ? 'Nenhum teste desde a conexão.'
          : lastTest.ok
            ? `Tudo certo em ${formatDateTime(lastTest.at)}.`
            : `Falhou em ${formatDateTime(lastTest.at)}: ${lastTest.message ?? ''}`}
      </dd>
    </dl>
  );
}
