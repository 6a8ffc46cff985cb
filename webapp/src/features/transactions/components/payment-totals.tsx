import { formatCentavos } from '@/utils/money';

import type { PaymentSummary } from '../api/payments';

/** The filter's totals: what stands, what was refunded of it, and what was voided. */
export function PaymentTotals({ total }: { total: PaymentSummary['total'] }) {
  return (
    <dl className="payment-totals" aria-label="Totais do filtro">
      <div>
        <dt>Recebido</dt>
        <dd>{formatCentavos(total.receivedCentavos)}</dd>
      </div>
      <div>
        <dt>Pagamentos</dt>
        <dd>{total.payments}</dd>
      </div>
      <div>
        <dt>Devolvido</dt>
        <dd>{formatCentavos(total.refundedCentavos)}</dd>
      </div>
      <div>
        <dt>Líquido</dt>
        <dd>{formatCentavos(total.netCentavos)}</dd>
      </div>
      {total.voided > 0 ? (
        <div>
          <dt>Anulados</dt>
          <dd>{total.voided}</dd>
        </div>
      ) : null}
    </dl>
  );
}
