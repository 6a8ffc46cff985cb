import { useWatch } from 'react-hook-form';
import { z } from 'zod';

import { FormAlert } from '@/components/form-alert';
import { FormOutcome } from '@/components/form-outcome';
import { KeyPicker, TYPED_KEY, chosenKey, keySchema, useRecipientFields } from '@/components/key-picker';
import { TextField } from '@/components/text-field';
import { useApiForm } from '@/hooks/use-api-form';
import type { ApiError } from '@/lib/api-error';
import { WORKSPACE_NOT_FOUND, errorMessage, isForbidden, isNotFound } from '@/lib/error-messages';
import type { KeyChoice } from '@/types/pix-key';
import { optionalText, requiredText } from '@/utils/field-rules';
import { formatCentavos, isBrazilianAmount } from '@/utils/money';

import { type NewPaymentLink, useCreatePaymentLinkMutation } from '../api/payment-links';

export const INVALID_AMOUNT = 'Digite o valor em reais, como 45,90.';
export const CREATE_FORBIDDEN = 'Seu papel nesta conta não permite criar links de pagamento.';

const linkSchema = z
  .object({
    merchantName: requiredText(),
    merchantCity: requiredText(),
    amount: requiredText().refine((amount) => isBrazilianAmount(amount), INVALID_AMOUNT),
    description: optionalText(),
    expiresOn: optionalText(),
  })
  .and(keySchema)
  .transform(chosenKey) satisfies z.ZodType<NewPaymentLink>;

function failureMessage(error: ApiError): string {
  if (isForbidden(error)) return CREATE_FORBIDDEN;
  if (isNotFound(error)) return WORKSPACE_NOT_FOUND;
  return errorMessage(error);
}

export interface PaymentLinkFormProps {
  accountId: string;
  defaultMerchantName?: string | null;
  defaultMerchantCity?: string | null;
  /** The account's registered keys (the default one is chosen first); none: the key is typed. */
  keys?: readonly KeyChoice[];
}

/** Creates a payment link; the server's Pix checks come back under each field. */
export function PaymentLinkForm({ accountId, defaultMerchantName, defaultMerchantCity, keys }: PaymentLinkFormProps) {
  const [create, { isLoading }] = useCreatePaymentLinkMutation();
  const form = useApiForm({
    schema: linkSchema,
    defaultValues: {
      keyId: TYPED_KEY,
      pixKey: '',
      merchantName: defaultMerchantName ?? '',
      merchantCity: defaultMerchantCity ?? '',
      amount: '',
      description: '',
      expiresOn: '',
    },
    send: (link) => create({ accountId, link }).unwrap(),
    clearOnSuccess: ['amount', 'description', 'expiresOn'],
    // The server names the expiry by the instant it computes from the day.
    fieldAliases: { expiresAt: 'expiresOn' },
  });

  const chooseKey = useRecipientFields(form, keys, defaultMerchantName, defaultMerchantCity);
  const chosen = useWatch({ control: form.control, name: 'keyId' });
  const created = form.outcome;

  return (
    <form {...form.formProps} aria-label="Criar link de pagamento">
      {form.failure ? <FormAlert takeFocus>{failureMessage(form.failure)}</FormAlert> : null}
      {created ? (
        <FormOutcome key={created.id}>
          <p>
            Link de pagamento criado (<span className="amount">{formatCentavos(created.amountCentavos)}</span>). Envie
            este endereço para quem vai pagar:
          </p>
          <p className="link-url">
            <a href={created.url}>{created.url}</a>
          </p>
          <p className="actions">
            <button
              type="button"
              className="button secondary"
              onClick={() => void navigator.clipboard.writeText(created.url)}
            >
              Copiar link
            </button>
          </p>
        </FormOutcome>
      ) : null}
      <KeyPicker
        keys={keys}
        keyId={form.field('keyId')}
        pixKey={form.field('pixKey')}
        chosen={chosen}
        onChosen={chooseKey}
      />
      <TextField label="Nome de quem recebe" {...form.field('merchantName')} />
      <TextField label="Cidade" {...form.field('merchantCity')} />
      <TextField
        label="Valor"
        inputMode="decimal"
        autoComplete="off"
        {...form.field('amount')}
        hint="Em reais, como 45,90."
      />
      <TextField label="Descrição (opcional)" {...form.field('description')} hint="Aparece para quem paga." />
      <TextField
        label="Válido até (opcional)"
        type="date"
        {...form.field('expiresOn')}
        hint="Depois deste dia o link deixa de receber pagamentos. Em branco, vale até você cancelar."
      />
      <button type="submit" className="button" disabled={isLoading}>
        {isLoading ? 'Criando…' : 'Criar link de pagamento'}
      </button>
    </form>
  );
}
