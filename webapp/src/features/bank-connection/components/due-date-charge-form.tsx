import { useState } from 'react';
import { z } from 'zod';

import { FormAlert } from '@/components/form-alert';
import { FormOutcome } from '@/components/form-outcome';
import { TextField } from '@/components/text-field';
import { useApiForm } from '@/hooks/use-api-form';
import { formatDate } from '@/utils/dates';
import { optionalText, requiredText } from '@/utils/field-rules';
import { formatCentavos, isBrazilianAmount } from '@/utils/money';

import { type ChargeCode, type NewDueDateCharge, useCreateChargeMutation } from '../api/bank-connections';
import { CHARGE_AMOUNT_INVALID, CHARGE_MESSAGE_TOO_LONG } from './charge-form';
import { bankFailureMessage } from './failure-message';

const PERCENT_INVALID = 'Informe o percentual, por exemplo 2,00.';
const DATE_INVALID = 'Escolha a data.';
const DAYS_INVALID = 'De 0 a 365 dias.';

const optionalAmount = (message: string) =>
  optionalText().refine((text) => text === null || isBrazilianAmount(text), message);

const dueDateSchema = z
  .object({
    debtorName: requiredText(),
    debtorDocument: requiredText(),
    amount: requiredText().refine((amount) => isBrazilianAmount(amount), CHARGE_AMOUNT_INVALID),
    dueDate: requiredText().refine((text) => /^\d{4}-\d{2}-\d{2}$/.test(text), DATE_INVALID),
    daysAfterDue: requiredText().refine((text) => /^\d{1,3}$/.test(text) && Number(text) <= 365, DAYS_INVALID),
    fine: optionalAmount(PERCENT_INVALID),
    interest: optionalAmount(PERCENT_INVALID),
    discount: optionalAmount(CHARGE_AMOUNT_INVALID),
    discountUntil: optionalText(),
    abatement: optionalAmount(CHARGE_AMOUNT_INVALID),
    description: optionalText().refine((text) => text === null || text.length <= 140, CHARGE_MESSAGE_TOO_LONG),
    merchantCity: requiredText(),
  })
  .refine((values) => values.discount === null || values.discountUntil !== null, {
    path: ['discountUntil'],
    message: 'Até quando vale o desconto?',
  });

/** The made charge, with the due date it was asked for (the answer says until when it may be paid). */
interface Made {
  code: ChargeCode;
  dueDate: string;
  debtor: string;
}

/**
 * "Cobrança com vencimento": an invoice the key's bank holds (`cobv`), with who owes it, the due
 * date, and the fine, interest, discount and abatement the bank applies by the day it is paid.
 */
export function DueDateChargeForm({
  accountId,
  keyId,
  defaultCity,
}: {
  accountId: string;
  keyId: string;
  defaultCity: string;
}) {
  const [create, { isLoading }] = useCreateChargeMutation();
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  const form = useApiForm({
    schema: dueDateSchema,
    defaultValues: {
      debtorName: '',
      debtorDocument: '',
      amount: '',
      dueDate: '',
      daysAfterDue: '30',
      fine: '',
      interest: '',
      discount: '',
      discountUntil: '',
      abatement: '',
      description: '',
      merchantCity: defaultCity,
    },
    send: async (values): Promise<Made> => {
      const charge: NewDueDateCharge = {
        keyId,
        amount: values.amount,
        description: values.description,
        merchantCity: values.merchantCity,
        dueDate: values.dueDate,
        daysAfterDue: Number(values.daysAfterDue),
        debtor: { name: values.debtorName, document: values.debtorDocument },
        fine: values.fine,
        interest: values.interest,
        discount:
          values.discount === null || values.discountUntil === null
            ? null
            : { amount: values.discount, until: values.discountUntil },
        abatement: values.abatement,
      };
      const code = await create({ accountId, charge, idempotencyKey }).unwrap();
      setIdempotencyKey(crypto.randomUUID());
      return { code, dueDate: values.dueDate, debtor: values.debtorName };
    },
    clearOnSuccess: ['debtorName', 'debtorDocument', 'amount', 'description', 'discount', 'discountUntil', 'abatement'],
    fieldAliases: {
      'debtor.name': 'debtorName',
      'debtor.document': 'debtorDocument',
      merchant_city: 'merchantCity',
    },
  });
  const made = form.outcome;
  return (
    <section className="charge" aria-labelledby="titulo-cobranca-vencimento">
      <h3 id="titulo-cobranca-vencimento">Cobrança com vencimento</h3>
      <p>
        Para mensalidades e faturas: o banco guarda quem deve, o vencimento e o que acrescentar ou descontar, e calcula
        o valor do dia em que pagarem.
      </p>
      <form {...form.formProps} aria-label="Criar cobrança com vencimento">
        {form.failure ? <FormAlert takeFocus>{bankFailureMessage(form.failure)}</FormAlert> : null}
        <TextField label="Nome de quem paga" autoComplete="off" {...form.field('debtorName')} />
        <TextField
          label="CPF ou CNPJ de quem paga"
          inputMode="numeric"
          autoComplete="off"
          {...form.field('debtorDocument')}
          hint="O banco exige para cobranças com vencimento."
        />
        <TextField label="Valor" inputMode="decimal" autoComplete="off" {...form.field('amount')} hint="Em reais." />
        <TextField label="Vencimento" type="date" {...form.field('dueDate')} />
        <TextField
          label="Dias para pagar depois do vencimento"
          inputMode="numeric"
          {...form.field('daysAfterDue')}
          hint="Depois disso o banco não aceita mais o pagamento."
        />
        <TextField label="Multa depois do vencimento, em % (opcional)" inputMode="decimal" {...form.field('fine')} />
        <TextField label="Juros ao mês, em % (opcional)" inputMode="decimal" {...form.field('interest')} />
        <TextField label="Desconto, em reais (opcional)" inputMode="decimal" {...form.field('discount')} />
        <TextField label="Desconto vale até" type="date" {...form.field('discountUntil')} />
        <TextField label="Abatimento, em reais (opcional)" inputMode="decimal" {...form.field('abatement')} />
        <TextField
          label="Mensagem para quem paga (opcional)"
          maxLength={140}
          {...form.field('description')}
          hint="Aparece no app do banco de quem paga. Até 140 caracteres."
        />
        <TextField label="Cidade" autoComplete="address-level2" {...form.field('merchantCity')} />
        <p className="actions">
          <button type="submit" className="button" disabled={isLoading}>
            {isLoading ? 'Pedindo ao banco…' : 'Criar cobrança com vencimento'}
          </button>
        </p>
      </form>
      {made ? (
        <FormOutcome key={made.code.id}>
          <p>
            Cobrança de {formatCentavos(made.code.amountCentavos)} para {made.debtor} criada no banco, com vencimento em{' '}
            {formatDate(`${made.dueDate}T12:00:00Z`)}. Envie o link da página de pagamento a quem vai pagar.
          </p>
          <p className="actions">
            <a className="button" href={made.code.paymentUrl} target="_blank" rel="noreferrer">
              Abrir a página de pagamento
            </a>
          </p>
        </FormOutcome>
      ) : null}
    </section>
  );
}
