import { useListPixKeysQuery } from '@/features/keys/api/keys';
import { useListQrCodesQuery } from '@/features/qrcodes/api/list-qrcodes';
import { StatementImport } from '@/features/statement-import/components/statement-import';
import { TransactionsScreen } from '@/features/transactions/components/transactions-screen';
import { WithWorkspace } from '@/features/workspaces/components/with-workspace';
import { useLivePayments } from '@/hooks/use-live-payments';
import type { CurrentWorkspace } from '@/types/workspace';
import { formatCentavos } from '@/utils/money';

/**
 * The codes (an operator's own) and keys of the account, as the filters and the form list them; the
 * list, totals and chart follow payments as they arrive (the live stream invalidates `Payment`).
 */
function TransactionsIn({ workspace }: { workspace: CurrentWorkspace }) {
  useLivePayments(workspace.accountId);
  const { data: codes = [] } = useListQrCodesQuery(workspace.accountId);
  const { data: keys = [] } = useListPixKeysQuery(workspace.accountId);
  const codeOptions = codes.map((code) => ({
    value: code.id,
    label: [
      code.description ?? code.merchantName,
      code.amountCentavos === null ? null : formatCentavos(code.amountCentavos),
      code.txid,
    ]
      .filter(Boolean)
      .join(' · '),
  }));
  const keyOptions = keys.map((key) => ({
    value: key.id,
    label: [key.label, key.pixKey].filter(Boolean).join(' · ') || 'Chave sem nome',
  }));
  return (
    <TransactionsScreen
      workspace={workspace}
      codes={codeOptions}
      keys={keyOptions}
      statementImport={workspace.role === 'operator' ? undefined : <StatementImport accountId={workspace.accountId} />}
    />
  );
}

/** /painel/transacoes, for the account in use (a new account starts a new screen). */
export function Component() {
  return (
    <WithWorkspace title="Transações">
      {(workspace) => <TransactionsIn key={workspace.accountId} workspace={workspace} />}
    </WithWorkspace>
  );
}
