import { Link } from 'react-router';

import { useBankConnectionsQuery } from '../api/bank-connections';

/** Under a key on /painel/chaves: its bank connection, and the way to connect it or see it. */
export function KeyBankLine({ accountId, keyId, shownKey }: { accountId: string; keyId: string; shownKey: string }) {
  const { data } = useBankConnectionsQuery(accountId);
  const connection = data?.connections.find((candidate) => candidate.keyId === keyId);
  const to = `/painel/chaves/${encodeURIComponent(keyId)}/banco`;
  return (
    <p className="key-bank-line">
      {connection ? (
        <>
          Banco conectado: {connection.bankName} ({connection.environment === 'producao' ? 'produção' : 'homologação'}
          ). <Link to={to}>Ver conexão</Link>
        </>
      ) : (
        <>
          Receba os Pix desta chave sem copiar nada:{' '}
          <Link to={to} aria-label={`Conectar o banco da chave ${shownKey}`}>
            Conectar banco
          </Link>
        </>
      )}
    </p>
  );
}
