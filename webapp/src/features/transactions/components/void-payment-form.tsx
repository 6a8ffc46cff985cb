import { useState } from 'react';
import { z } from 'zod';

import { ConfirmBox } from '@/components/confirm-box';
import { FormAlert } from '@/components/form-alert';
import { TextField } from '@/components/text-field';
import { useApiForm } from '@/hooks/use-api-form';
import { errorMessage, isForbidden } from '@/lib/error-messages';
import { requiredText } from '@/utils/field-rules';
import { formatCentavos } from '@/utils/money';

import { type Payment, useVoidPaymentMutation } from '../api/payments';

export const VOID_FORBIDDEN = 'Seu papel nesta conta não permite anular este pagamento.';

const voidSchema = z.object({ reason: requiredText() });

/** Voids a payment typed in by hand, after a second, explicit yes. */
export function VoidPaymentForm({ accountId, payment }: { accountId: string; payment: Payment }) {
  const [voidPayment, { isLoading }] = useVoidPaymentMutation();
  const [asking, setAsking] = useState(false);
  const form = useApiForm({
    schema: voidSchema,
    defaultValues: { reason: '' },
    send: ({ reason }) => voidPayment({ accountId, reference: payment.reference, reason }).unwrap(),
    codeFields: { 'payment-reason-invalid': { field: 'reason' } },
  });
  if (!asking) {
    return (
      <p className="actions">
        <button type="button" className="button secondary" onClick={() => setAsking(true)}>
          Anular pagamento
        </button>
      </p>
    );
  }
  return (
    <form {...form.formProps} aria-label="Anular pagamento">
      {form.failure ? (
        <FormAlert takeFocus>{isForbidden(form.failure) ? VOID_FORBIDDEN : errorMessage(form.failure)}</FormAlert>
      ) : null}
      <TextField label="Motivo" {...form.field('reason')} hint="Fica no histórico do pagamento." />
      <ConfirmBox
        confirmType="submit"
        confirmLabel="Sim, anular"
        busyLabel="Anulando…"
        busy={isLoading}
        cancelLabel="Não anular"
        onCancel={() => setAsking(false)}
      >
        <p>
          Anular o pagamento de {formatCentavos(payment.amountCentavos)}? Ele sai dos totais, e o histórico guarda quem
          anulou e por quê.
        </p>
      </ConfirmBox>
    </form>
  );
}
