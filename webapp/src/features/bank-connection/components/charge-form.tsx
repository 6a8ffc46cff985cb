import { useState } from 'react';
import { z } from 'zod';

import { FormAlert } from '@/components/form-alert';
import { FormOutcome } from '@/components/form-outcome';
import { SelectField } from '@/components/select-field';
import { TextField } from '@/components/text-field';
import { useApiForm } from '@/hooks/use-api-form';
import { formatDateTime } from '@/utils/dates';
import { optionalText, requiredText } from '@/utils/field-rules';
import { formatCentavos, isBrazilianAmount } from '@/utils/money';

import { type NewCharge, useCreateChargeMutation } from '../api/bank-connections';
import { bankFailureMessage } from './failure-message';

export const CHARGE_AMOUNT_INVALID = 'Informe o valor em reais, por exemplo 45,90.';
export const CHARGE_MESSAGE_TOO_LONG = 'A mensagem pode ter até 140 caracteres.';

/** The validities offered, in minutes: a sale at the counter, an order by phone, a day. */
const VALIDITIES = [
  { minutes: 15, label: '15 minutos' },
  { minutes: 30, label: '30 minutos' },
  { minutes: 60, label: '1 hora' },
  { minutes: 240, label: '4 horas' },
  { minutes: 1440, label: '24 horas' },
] as const;

const chargeSchema = z.object({
  amount: requiredText().refine((amount) => isBrazilianAmount(amount), CHARGE_AMOUNT_INVALID),
  description: optionalText().refine((text) => text === null || text.length <= 140, CHARGE_MESSAGE_TOO_LONG),
  expiresInMinutes: z.string(),
  merchantCity: requiredText(),
});

/**
 * "Criar cobrança": the key's bank makes an immediate charge (`cob`) and Balcão shows its code's
 * page, which counts the validity down and says "Pagamento recebido" when the bank reports it. One
 * idempotency key per charge: a doubled click or a retry is the same charge.
 */
export function ChargeForm({
  accountId,
  keyId,
  defaultCity,
}: {
  accountId: string;
  keyId: string;
  /** The city the account's settings suggest for new codes. */
  defaultCity: string;
}) {
  const [create, { isLoading }] = useCreateChargeMutation();
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  const form = useApiForm({
    schema: chargeSchema,
    defaultValues: { amount: '', description: '', expiresInMinutes: '30', merchantCity: defaultCity },
    send: async (values) => {
      const charge: NewCharge = {
        keyId,
        amount: values.amount,
        description: values.description,
        expiresInMinutes: Number(values.expiresInMinutes),
        merchantCity: values.merchantCity,
      };
      const made = await create({ accountId, charge, idempotencyKey }).unwrap();
      setIdempotencyKey(crypto.randomUUID());
      return made;
    },
    clearOnSuccess: ['amount', 'description'],
    fieldAliases: { merchant_city: 'merchantCity' },
    codeFields: {
      'charge-message-too-long': { field: 'description' },
      'charge-expiry-invalid': { field: 'expiresInMinutes' },
    },
  });
  const made = form.outcome;
  return (
    <section className="charge" aria-labelledby="titulo-cobranca">
      <h3 id="titulo-cobranca">Cobrança com validade</h3>
      <p>
        O banco cria um QR code só para esta venda, com o valor fixo e prazo para pagar. Quem paga vê o tempo correndo,
        e a página mostra “Pagamento recebido” assim que o banco avisar.
      </p>
      <form {...form.formProps} aria-label="Criar cobrança">
        {form.failure ? <FormAlert takeFocus>{bankFailureMessage(form.failure)}</FormAlert> : null}
        <TextField label="Valor" inputMode="decimal" autoComplete="off" {...form.field('amount')} hint="Em reais." />
        <TextField
          label="Mensagem para quem paga (opcional)"
          maxLength={140}
          {...form.field('description')}
          hint="Aparece no app do banco de quem paga. Até 140 caracteres."
        />
        <SelectField label="Validade" {...form.field('expiresInMinutes')}>
          {VALIDITIES.map((validity) => (
            <option key={validity.minutes} value={String(validity.minutes)}>
              {validity.label}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Cidade"
          autoComplete="address-level2"
          {...form.field('merchantCity')}
          hint="A cidade de quem recebe, como no QR code."
        />
        <p className="actions">
          <button type="submit" className="button" disabled={isLoading}>
            {isLoading ? 'Pedindo ao banco…' : 'Criar cobrança'}
          </button>
        </p>
      </form>
      {made ? (
        <FormOutcome key={made.id}>
          <p>
            Cobrança de {formatCentavos(made.amountCentavos)} criada no banco, paga até{' '}
            {formatDateTime(made.chargeExpiresAt)}. Mostre a página de pagamento a quem vai pagar ou envie o link.
          </p>
          <p className="actions">
            <a className="button" href={made.paymentUrl} target="_blank" rel="noreferrer">
              Abrir a página de pagamento
            </a>
          </p>
        </FormOutcome>
      ) : null}
    </section>
  );
}
