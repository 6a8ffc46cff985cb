import { useState } from 'react';
import { Link } from 'react-router';

import { useBankConnectionsQuery } from '../api/bank-connections';
import { connectionWarning } from './key-bank-line';

/**
 * On the dashboard home, for owner and manager: each connected key whose bank is out of reach or
 * whose certificate ends within 30 days (the days Balcão also warns of by e-mail: 30, 7 and 1),
 * with the way to the key's bank page. Nothing when all is well.
 */
export function BankWarnings({ accountId }: { accountId: string }) {
  const { data } = useBankConnectionsQuery(accountId);
  const [now] = useState(() => Date.now());
  const warnings = (data?.connections ?? [])
    .map((connection) => ({ connection, warning: connectionWarning(connection, now) }))
    .filter((entry): entry is { connection: typeof entry.connection; warning: string } => entry.warning !== null);
  if (warnings.length === 0) return null;
  return (
    <div className="notice" role="status" aria-label="Avisos dos bancos conectados">
      {warnings.map(({ connection, warning }) => (
        <p key={connection.keyId}>
          <strong>
            Chave {connection.pixKey} ({connection.bankName}):
          </strong>{' '}
          {warning} <Link to={`/painel/chaves/${encodeURIComponent(connection.keyId)}/banco`}>Ver conexão</Link>
        </p>
      ))}
    </div>
  );
}
