import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';

import { FormAlert } from '@/components/form-alert';
import { FormOutcome } from '@/components/form-outcome';
import { SelectField, type SelectFieldProps } from '@/components/select-field';
import { TextField } from '@/components/text-field';
import { useApiForm } from '@/hooks/use-api-form';
import { formatDate } from '@/utils/dates';
import { optionalText, requiredText } from '@/utils/field-rules';
import { formatCentavos, isBrazilianAmount } from '@/utils/money';

import {
  type ChargeAdjustment,
  type ChargeCode,
  type NewDueDateCharge,
  useCreateChargeMutation,
} from '../api/bank-connections';
import { CHARGE_AMOUNT_INVALID, CHARGE_MESSAGE_TOO_LONG } from './charge-form';
import { bankFailureMessage } from './failure-message';

const VALUE_INVALID = 'Informe o valor, por exemplo 2,00.';
const DATE_INVALID = 'Escolha a data.';
const VALUE_MISSING = 'Informe o valor desta modalidade.';

/** The API Pix's modalities (its domain tables), as the form offers them. */
const FINES = [
  { modality: '1', label: 'Valor fixo (R$)' },
  { modality: '2', label: 'Percentual (%)' },
] as const;
const INTERESTS = [
  { modality: '1', label: 'R$ por dia corrido' },
  { modality: '2', label: '% ao dia (dias corridos)' },
  { modality: '3', label: '% ao mês (dias corridos)' },
  { modality: '4', label: '% ao ano (dias corridos)' },
  { modality: '5', label: 'R$ por dia útil' },
  { modality: '6', label: '% por dia útil' },
  { modality: '7', label: '% ao mês (dias úteis)' },
  { modality: '8', label: '% ao ano (dias úteis)' },
] as const;
const DISCOUNTS = [
  { modality: '1', label: 'Valor fixo até a data (R$)' },
  { modality: '2', label: 'Percentual até a data (%)' },
] as const;
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
    fineModality: z.string(),
    fine: optionalAmount(VALUE_INVALID),
    interestModality: z.string(),
    interest: optionalAmount(VALUE_INVALID),
    discountModality: z.string(),
    discount: optionalAmount(VALUE_INVALID),
    discountUntil: optionalText(),
    abatementModality: z.string(),
    abatement: optionalAmount(VALUE_INVALID),
    description: optionalText().refine((text) => text === null || text.length <= 140, CHARGE_MESSAGE_TOO_LONG),
    merchantCity: requiredText(),
  })
  .refine((values) => values.fineModality === '' || values.fine !== null, { path: ['fine'], message: VALUE_MISSING })
  .refine((values) => values.interestModality === '' || values.interest !== null, {
    path: ['interest'],
    message: VALUE_MISSING,
  })
  .refine((values) => values.discountModality === '' || values.discount !== null, {
    path: ['discount'],
    message: VALUE_MISSING,
  })
  .refine((values) => values.discountModality === '' || values.discountUntil !== null, {
    path: ['discountUntil'],
    message: 'Até quando vale o desconto?',
  })
  .refine((values) => values.abatementModality === '' || values.abatement !== null, {
    path: ['abatement'],
    message: VALUE_MISSING,
  });

/** A `<select>` of the API Pix's modalities of one term, "none" first. */
function ModalitySelect({
  none,
  options,
  ...field
}: { none: string; options: readonly { modality: string; label: string }[] } & Omit<SelectFieldProps, 'children'>) {
  return (
    <SelectField {...field}>
      <option value="">{none}</option>
      {options.map((option) => (
        <option key={option.modality} value={option.modality}>
          {option.label}
        </option>
      ))}
    </SelectField>
  );
}

/** A modality chosen ('' for none) with its value, as the API takes it. */
function adjustment(modality: string, value: string | null): ChargeAdjustment | null {
  return modality === '' || value === null ? null : { modality: Number(modality), value };
}

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
      fineModality: '',
      fine: '',
      interestModality: '',
      interest: '',
      discountModality: '',
      discount: '',
      discountUntil: '',
      abatementModality: '',
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
        fine: adjustment(values.fineModality, values.fine),
        interest: adjustment(values.interestModality, values.interest),
        discount:
          values.discountModality === '' || values.discount === null || values.discountUntil === null
            ? null
            : {
                modality: Number(values.discountModality),
                dates: [{ until: values.discountUntil, value: values.discount }],
              },
        abatement: adjustment(values.abatementModality, values.abatement),
      };
      const code = await create({ accountId, charge, idempotencyKey }).unwrap();
      setIdempotencyKey(crypto.randomUUID());
      return { code, dueDate: values.dueDate, debtor: values.debtorName };
    },
    clearOnSuccess: ['debtorName', 'debtorDocument', 'amount', 'description'],
    fieldAliases: {
      'debtor.name': 'debtorName',
      'debtor.document': 'debtorDocument',
      merchant_city: 'merchantCity',
    },
  });
  const made = form.outcome;
  const [fineModality, interestModality, discountModality, abatementModality] = useWatch({
    control: form.control,
    name: ['fineModality', 'interestModality', 'discountModality', 'abatementModality'],
  });
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
        <ModalitySelect
          label="Multa depois do vencimento"
          none="Sem multa"
          options={FINES}
          {...form.field('fineModality')}
        />
        {fineModality === '' ? null : <TextField label="Valor da multa" inputMode="decimal" {...form.field('fine')} />}
        <ModalitySelect
          label="Juros depois do vencimento"
          none="Sem juros"
          options={INTERESTS}
          {...form.field('interestModality')}
        />
        {interestModality === '' ? null : (
          <TextField label="Valor dos juros" inputMode="decimal" {...form.field('interest')} />
        )}
        <ModalitySelect
          label="Desconto para quem paga antes"
          none="Sem desconto"
          options={DISCOUNTS}
          {...form.field('discountModality')}
        />
        {discountModality === '' ? null : (
          <>
            <TextField label="Valor do desconto" inputMode="decimal" {...form.field('discount')} />
            <TextField label="Desconto vale até" type="date" {...form.field('discountUntil')} />
          </>
        )}
        <ModalitySelect label="Abatimento" none="Sem abatimento" options={FINES} {...form.field('abatementModality')} />
        {abatementModality === '' ? null : (
          <TextField label="Valor do abatimento" inputMode="decimal" {...form.field('abatement')} />
        )}
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
