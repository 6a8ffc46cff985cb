import { useState } from 'react';
import { Link } from 'react-router';

import { formatDate, formatDateTime } from '@/utils/dates';

import { type BankConnection, useBankConnectionsQuery } from '../api/bank-connections';

/** What needs the owner's attention about a connection, if anything: the bank out of reach, the certificate ending. */
export function connectionWarning(connection: BankConnection, now: number): string | null {
  if (connection.catchUp?.failingSince) {
    return `Sem contato com o banco desde ${formatDateTime(connection.catchUp.failingSince)}.`;
  }
  const left = Math.floor((new Date(connection.certificateNotAfter).getTime() - now) / 86_400_000);
  if (left < 0) return `O certificado venceu em ${formatDate(connection.certificateNotAfter)}: envie o novo.`;
  if (left <= 30) return `O certificado vence em ${left} ${left === 1 ? 'dia' : 'dias'}: peça o novo ao banco.`;
  return null;
}

/** Under a key on /painel/chaves: its bank connection, and the way to connect it or see it. */
export function KeyBankLine({ accountId, keyId, shownKey }: { accountId: string; keyId: string; shownKey: string }) {
  const { data } = useBankConnectionsQuery(accountId);
  const [now] = useState(() => Date.now());
  const connection = data?.connections.find((candidate) => candidate.keyId === keyId);
  const to = `/painel/chaves/${encodeURIComponent(keyId)}/banco`;
  if (connection === undefined) {
    return (
      <p className="key-bank-line">
        Receba os Pix desta chave sem copiar nada:{' '}
        <Link to={to} aria-label={`Conectar o banco da chave ${shownKey}`}>
          Conectar banco
        </Link>
      </p>
    );
  }
  const warning = connectionWarning(connection, now);
  return (
    <p className="key-bank-line">
      Banco conectado: {connection.bankName} ({connection.environment === 'producao' ? 'produção' : 'homologação'}).{' '}
      {warning ? <strong className="warning">{warning} </strong> : null}
      <Link to={to}>Ver conexão ou criar cobrança</Link>
    </p>
  );
}
