import { useSearchParams } from 'react-router';

import { CheckoutScreen } from '@/features/billing/components/checkout-screen';
import { WithWorkspace } from '@/features/workspaces/components/with-workspace';

/** /pagar_asaas?cobranca=<charge id>, for the account in use. */
export function Component() {
  const [searchParams] = useSearchParams();
  const chargeId = searchParams.get('cobranca');
  return (
    <WithWorkspace title="Pagar a assinatura">
      {(workspace) => <CheckoutScreen key={workspace.accountId} workspace={workspace} chargeId={chargeId} />}
    </WithWorkspace>
  );
}
