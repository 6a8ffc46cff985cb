import type { ReactNode } from 'react';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';

import { FormAlert } from '@/components/form-alert';
import { FormOutcome } from '@/components/form-outcome';
import { KeyPicker, TYPED_KEY, chosenKey, keySchema, useRecipientFields } from '@/components/key-picker';
import { TextField } from '@/components/text-field';
import { FieldProblems, useApiForm } from '@/hooks/use-api-form';
import type { ApiError } from '@/lib/api-error';
import { WORKSPACE_NOT_FOUND, errorMessage, isForbidden, isNotFound } from '@/lib/error-messages';
import type { KeyChoice } from '@/types/pix-key';
import { optionalText, requiredText } from '@/utils/field-rules';
import { formatCentavos, isBrazilianAmount } from '@/utils/money';

import { type NewQrCode, useCreateQrCodeMutation } from '../api/create-qrcode';
import { useCheckQrCodeMutation } from '../api/manage-qrcodes';
import { CodeResult } from './code-result';

export const INVALID_AMOUNT = 'Digite o valor em reais, como 12,50.';
export const CREATE_FORBIDDEN = 'Seu papel nesta conta não permite criar QR codes.';

const qrCodeSchema = z
  .object({
    merchantName: requiredText(),
    merchantCity: requiredText(),
    // Only the shape is checked here; the server parses the amount into centavos.
    amount: optionalText().refine((amount) => amount === null || isBrazilianAmount(amount), INVALID_AMOUNT),
    description: optionalText(),
    txid: optionalText().refine(
      (txid) => txid === null || /^[A-Za-z0-9]{1,25}$/.test(txid),
      'O txid tem de 1 a 25 letras sem acento e números, sem espaços.',
    ),
    singleUse: z.boolean(),
  })
  .and(keySchema)
  .transform(chosenKey)
  // Offered only with an amount (a sale has a price): a box ticked before the amount was erased is not sent.
  .transform(({ singleUse, ...code }) => ({
    ...code,
    singleUse: code.amount !== null && singleUse,
  })) satisfies z.ZodType<NewQrCode>;

export const SINGLE_USE_LABEL = 'Uso único: um pagamento só';
export const SINGLE_USE_HINT =
  'Para uma venda: depois de pago, a página do QR code avisa a todos que já foi pago e não mostra mais o código.';

/** The BR Code's own names for the same fields (`domain::brcode::Field::as_str`), should a 422 use them. */
const FIELD_ALIASES = {
  pix_key: 'pixKey',
  merchant_name: 'merchantName',
  merchant_city: 'merchantCity',
  transaction_amount: 'amount',
  additional_info: 'description',
} as const;

function failureMessage(error: ApiError): string {
  if (isForbidden(error)) return CREATE_FORBIDDEN;
  if (isNotFound(error)) return WORKSPACE_NOT_FOUND;
  return errorMessage(error);
}

export interface QrCodeFormProps {
  accountId: string;
  /** Prefilled recipient name and city (the settings' defaults, in the person's own account). */
  defaultMerchantName?: string | null;
  defaultMerchantCity?: string | null;
  /** How the name and city will be written in the code, as they are typed (composed by the app). */
  renderPreview?: (name: string, city: string) => ReactNode;
  /** The account's registered keys (the default one is chosen first); none: the key is typed. */
  keys?: readonly KeyChoice[];
}

/** Creates a static QR code in the account; the server's BR Code checks come back under each field. */
export function QrCodeForm({
  accountId,
  defaultMerchantName,
  defaultMerchantCity,
  renderPreview,
  keys,
}: QrCodeFormProps) {
  const [create, { isLoading }] = useCreateQrCodeMutation();
  const [check] = useCheckQrCodeMutation();
  /** Every problem at once (the server's check) before the code is made; a failed check is no reason not to try. */
  const send = async (qrcode: NewQrCode) => {
    const checked = await check({ accountId, request: qrcode })
      .unwrap()
      .catch(() => null);
    if (checked !== null && checked.problems.length > 0) throw new FieldProblems(checked.problems);
    return create({ accountId, qrcode }).unwrap();
  };
  const form = useApiForm({
    schema: qrCodeSchema,
    defaultValues: {
      keyId: TYPED_KEY,
      pixKey: '',
      merchantName: defaultMerchantName ?? '',
      merchantCity: defaultMerchantCity ?? '',
      amount: '',
      description: '',
      txid: '',
      singleUse: false,
    },
    send,
    clearOnSuccess: ['amount', 'description', 'txid', 'singleUse'],
    fieldAliases: FIELD_ALIASES,
  });

  const chooseKey = useRecipientFields(form, keys, defaultMerchantName, defaultMerchantCity);
  const created = form.outcome;
  const [name, city, chosen, amount] = useWatch({
    control: form.control,
    name: ['merchantName', 'merchantCity', 'keyId', 'amount'],
  });
  const { error: singleUseError, ...singleUse } = form.field('singleUse');

  return (
    <form {...form.formProps} aria-label="Criar QR code">
      {form.failure ? <FormAlert takeFocus>{failureMessage(form.failure)}</FormAlert> : null}
      <KeyPicker
        keys={keys}
        keyId={form.field('keyId')}
        pixKey={form.field('pixKey')}
        chosen={chosen}
        onChosen={chooseKey}
      />
      <TextField label="Nome de quem recebe" {...form.field('merchantName')} />
      <TextField label="Cidade" {...form.field('merchantCity')} />
      {renderPreview ? renderPreview(name, city) : null}
      <TextField
        label="Valor (opcional)"
        inputMode="decimal"
        autoComplete="off"
        {...form.field('amount')}
        hint="Em reais, como 12,50. Em branco, quem paga digita o valor."
      />
      {amount.trim() === '' ? null : (
        <div className={['field', 'checkbox', singleUseError ? 'invalid' : null].filter(Boolean).join(' ')}>
          <label>
            <input type="checkbox" aria-describedby="uso-unico-dica" {...singleUse} /> {SINGLE_USE_LABEL}
          </label>
          <p id="uso-unico-dica" className="hint">
            {SINGLE_USE_HINT}
          </p>
          {singleUseError ? <p className="error">{singleUseError}</p> : null}
        </div>
      )}
      <TextField label="Descrição (opcional)" {...form.field('description')} hint="Aparece para quem paga." />
      <TextField
        label="Txid (opcional)"
        autoCapitalize="characters"
        autoComplete="off"
        spellCheck={false}
        {...form.field('txid')}
        hint="Identifica os pagamentos deste QR code no extrato. Em branco, o Balcão gera um só dele."
      />
      <button type="submit" className="button" disabled={isLoading}>
        {isLoading ? 'Criando…' : 'Criar QR code'}
      </button>
      {created ? (
        <>
          <FormOutcome key={created.id}>
            <p>
              QR code criado
              {created.amountCentavos === null ? '' : ` (${formatCentavos(created.amountCentavos)})`}. Baixe, imprima ou
              envie abaixo.
            </p>
          </FormOutcome>
          <CodeResult key={created.id} qrcode={created} />
        </>
      ) : null}
    </form>
  );
}
