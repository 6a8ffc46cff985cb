import { z } from 'zod';

import { FormAlert } from '@/components/form-alert';
import { FormOutcome } from '@/components/form-outcome';
import { SelectField } from '@/components/select-field';
import { TextField } from '@/components/text-field';
import { useApiForm } from '@/hooks/use-api-form';
import { errorMessage, isForbidden } from '@/lib/error-messages';
import { optionalText, requiredText } from '@/utils/field-rules';
import { formatCentavos, isBrazilianAmount } from '@/utils/money';

import { type NewPayment, useRecordPaymentMutation } from '../api/payments';
import { saoPauloInstant } from '../utils/periods';
import type { FilterOption } from './transaction-filters';

export const INVALID_AMOUNT = 'Digite o valor em reais, como 12,50.';
export const INVALID_TIME = 'Informe data e hora válidas.';
export const CHOOSE_CODE = 'Escolha o QR code que recebeu o pagamento.';
export const RECORD_FORBIDDEN = 'Seu papel nesta conta não permite registrar este pagamento.';

function schemaFor(codeRequired: boolean) {
  return z
    .object({
      qrcodeId: codeRequired ? z.string().min(1, CHOOSE_CODE) : z.string(),
      amount: requiredText().refine((amount) => isBrazilianAmount(amount), INVALID_AMOUNT),
      paidAt: z.string().refine((value) => value.trim() === '' || saoPauloInstant(value) !== null, INVALID_TIME),
      note: optionalText(),
      endToEndId: optionalText(),
    })
    .transform((values): NewPayment => ({
      qrcodeId: values.qrcodeId === '' ? null : values.qrcodeId,
      amount: values.amount,
      ...(values.paidAt.trim() === '' ? {} : { paidAt: saoPauloInstant(values.paidAt) ?? undefined }),
      note: values.note,
      endToEndId: values.endToEndId,
    }));
}

export interface RecordPaymentFormProps {
  accountId: string;
  codes: FilterOption[];
  /** Operators record only against codes they made: a code is required. */
  codeRequired: boolean;
}

/** Records a payment received outside the bank's confirmations (e.g. seen in the bank's app). */
export function RecordPaymentForm({ accountId, codes, codeRequired }: RecordPaymentFormProps) {
  const [record, { isLoading }] = useRecordPaymentMutation();
  const form = useApiForm({
    schema: schemaFor(codeRequired),
    defaultValues: { qrcodeId: '', amount: '', paidAt: '', note: '', endToEndId: '' },
    send: (payment) => record({ accountId, payment }).unwrap(),
    clearOnSuccess: ['amount', 'paidAt', 'note', 'endToEndId'],
  });
  const recorded = form.outcome;
  return (
    <form {...form.formProps} aria-label="Registrar pagamento" className="record-payment">
      {form.failure ? (
        <FormAlert takeFocus>{isForbidden(form.failure) ? RECORD_FORBIDDEN : errorMessage(form.failure)}</FormAlert>
      ) : null}
      {recorded ? (
        <FormOutcome key={recorded.reference}>
          <p>Pagamento de {formatCentavos(recorded.amountCentavos)} registrado. Ele já aparece na lista.</p>
        </FormOutcome>
      ) : null}
      <SelectField label="QR code" {...form.field('qrcodeId')}>
        <option value="">{codeRequired ? 'Escolha um QR code' : 'Sem QR code'}</option>
        {codes.map((code) => (
          <option key={code.value} value={code.value}>
            {code.label}
          </option>
        ))}
      </SelectField>
      <TextField
        label="Valor"
        inputMode="decimal"
        autoComplete="off"
        {...form.field('amount')}
        hint="Em reais, como 12,50."
      />
      <TextField
        label="Data e hora (opcional)"
        type="datetime-local"
        {...form.field('paidAt')}
        hint="No horário de Brasília. Em branco, agora."
      />
      <TextField
        label="Identificador do Pix, E2E (opcional)"
        autoCapitalize="characters"
        spellCheck={false}
        {...form.field('endToEndId')}
        hint="Os 32 caracteres que começam com E no comprovante. Com ele, a confirmação do banco não conta o pagamento duas vezes."
      />
      <TextField label="Observação (opcional)" {...form.field('note')} />
      <button type="submit" className="button" disabled={isLoading}>
        {isLoading ? 'Registrando…' : 'Registrar pagamento'}
      </button>
    </form>
  );
}
