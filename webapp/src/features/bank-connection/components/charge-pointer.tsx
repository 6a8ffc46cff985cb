import { Link } from 'react-router';

import { useBankConnectionsQuery } from '../api/bank-connections';

/**
 * On the code form: where a charge with a validity is made, for each key with a connected bank.
 * Nothing while no key is connected, or for a role that cannot see the connections (operators).
 */
export function ChargePointer({ accountId, canManage }: { accountId: string; canManage: boolean }) {
  const { data } = useBankConnectionsQuery(accountId, { skip: !canManage });
  const connections = data?.connections ?? [];
  if (connections.length === 0) return null;
  return (
    <section className="charge-pointer" aria-labelledby="titulo-cobranca-banco">
      <h2 id="titulo-cobranca-banco">Venda com prazo para pagar?</h2>
      <p>
        Com o banco conectado, o banco cria um QR code só para a venda, com validade, e a página de pagamento mostra
        “Pagamento recebido” sozinha.
      </p>
      <ul>
        {connections.map((connection) => (
          <li key={connection.keyId}>
            <Link to={`/painel/chaves/${encodeURIComponent(connection.keyId)}/banco`}>
              Criar cobrança com validade na chave {connection.pixKey} ({connection.bankName})
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
