import { useState } from 'react';
import { z } from 'zod';

import { ConfirmBox } from '@/components/confirm-box';
import { FormAlert } from '@/components/form-alert';
import { FormOutcome } from '@/components/form-outcome';
import { TextField } from '@/components/text-field';
import { useApiForm } from '@/hooks/use-api-form';
import { errorMessage, isForbidden } from '@/lib/error-messages';
import { optionalText, requiredText } from '@/utils/field-rules';
import { formatCentavos, isBrazilianAmount } from '@/utils/money';

import { type NewRefund, type Payment, type RefundAnswer, useRefundPaymentMutation } from '../api/payments';
import { refundableCentavos } from '../utils/labels';
import { INVALID_AMOUNT } from './record-payment-form';

export const REFUND_FORBIDDEN = 'Só o dono e os gerentes da conta devolvem pagamentos.';
export const DESCRIPTION_TOO_LONG = 'A descrição pode ter até 140 caracteres.';

const refundSchema = z
  .object({
    amount: requiredText().refine((amount) => isBrazilianAmount(amount), INVALID_AMOUNT),
    description: optionalText().refine((text) => text === null || text.length <= 140, DESCRIPTION_TOO_LONG),
  })
  .transform((values): NewRefund => ({ amount: values.amount, description: values.description }));

/** `1250` → `"12,50"`, the amount as the field takes it. */
function typedAmount(centavos: number): string {
  return formatCentavos(centavos).replace('R$ ', '').replace(/\./g, '');
}

/**
 * What the owner reads once the request is in: how far the bank got, in one sentence. The refund
 * as the payment shows it now wins over the answer, which the bank's settlement may have overtaken.
 */
export function refundOutcome(answer: RefundAnswer, now: Payment): string {
  const current = now.refunds.find((refund) => refund.id === answer.refund.id);
  const status = current?.status ?? answer.refund.status;
  const reason = current?.reason ?? answer.refund.reason;
  switch (status) {
    case 'DEVOLVIDO':
      return 'O banco devolveu o valor ao pagador.';
    case 'EM_PROCESSAMENTO':
      return 'O banco recebeu o pedido e está processando a devolução. O andamento aparece aqui e no histórico.';
    case 'NAO_REALIZADO':
      return `O banco não realizou a devolução${reason ? `: ${reason}` : '.'}`;
    case 'RECUSADA':
      return `O banco recusou a devolução${reason ? `: ${reason}` : '.'}`;
    default:
      return 'Pedido guardado. O banco ainda não respondeu; o Balcão envia de novo sozinho e mostra aqui quando ele responder.';
  }
}

/**
 * Pays (part of) a Pix back to its payer through the bank that holds the key, after a second,
 * explicit yes. One idempotency key per form: a retried or doubled request is the same refund.
 */
export function RefundPaymentForm({ accountId, payment }: { accountId: string; payment: Payment }) {
  const [refund, { isLoading }] = useRefundPaymentMutation();
  const [asking, setAsking] = useState(false);
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  const left = refundableCentavos(payment);
  const form = useApiForm({
    schema: refundSchema,
    defaultValues: { amount: typedAmount(left), description: '' },
    send: async (values) => {
      const answer = await refund({ accountId, reference: payment.reference, refund: values, idempotencyKey }).unwrap();
      setIdempotencyKey(crypto.randomUUID());
      setAsking(false);
      return answer;
    },
    codeFields: {
      'payment-refund-over-left': { field: 'amount' },
      'payment-amount-zero': { field: 'amount' },
      'payment-refund-description-invalid': { field: 'description' },
    },
  });
  const answered = form.outcome;
  return (
    <>
      {answered ? (
        <FormOutcome key={answered.refund.id}>
          <p>{refundOutcome(answered, payment)}</p>
        </FormOutcome>
      ) : null}
      {!asking ? (
        left > 0 ? (
          <p className="actions">
            <button type="button" className="button secondary" onClick={() => setAsking(true)}>
              Devolver pagamento
            </button>
          </p>
        ) : null
      ) : (
        <form {...form.formProps} aria-label="Devolver pagamento">
          {form.failure ? (
            <FormAlert takeFocus>{isForbidden(form.failure) ? REFUND_FORBIDDEN : errorMessage(form.failure)}</FormAlert>
          ) : null}
          <TextField
            label="Valor a devolver"
            inputMode="decimal"
            autoComplete="off"
            {...form.field('amount')}
            hint={`Em reais. Resta devolver até ${formatCentavos(left)}.`}
          />
          <TextField
            label="Mensagem ao pagador (opcional)"
            maxLength={140}
            {...form.field('description')}
            hint="Aparece no app do banco de quem pagou. Até 140 caracteres."
          />
          <ConfirmBox
            confirmType="submit"
            confirmLabel="Sim, devolver"
            busyLabel="Pedindo ao banco…"
            busy={isLoading}
            cancelLabel="Não devolver"
            onCancel={() => setAsking(false)}
          >
            <p>
              O Balcão pede ao seu banco que devolva o valor a quem pagou, saindo da sua conta. Depois de feita, a
              devolução não se desfaz.
            </p>
          </ConfirmBox>
        </form>
      )}
    </>
  );
}
