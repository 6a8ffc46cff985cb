import { type SubmitEvent, useRef, useState } from 'react';

import { FormAlert } from '@/components/form-alert';
import { TextField } from '@/components/text-field';
import { paths } from '@/config/paths';
import { useFocusFirstInvalid } from '@/hooks/use-focus-first-invalid';
import { asApiError, errorField } from '@/lib/api-error';
import { WORKSPACE_NOT_FOUND, errorMessage, isForbidden, isNotFound } from '@/lib/error-messages';
import { checkRequired } from '@/utils/field-rules';
import { formatCentavos, isBrazilianAmount } from '@/utils/money';

import { type NewQrCode, useCreateQrCodeMutation } from '../api/create-qrcode';
import type { QrCode } from '../api/list-qrcodes';

const FIELDS = ['pixKey', 'merchantName', 'merchantCity', 'amount', 'description'] as const;
type Field = (typeof FIELDS)[number];
type FieldErrors = Record<Field, string | null>;

const NO_ERRORS: FieldErrors = {
  pixKey: null,
  merchantName: null,
  merchantCity: null,
  amount: null,
  description: null,
};

/** The BR Code's own names for the same fields (`domain::brcode::Field::as_str`), should a 422 use them. */
const FIELD_ALIASES: Readonly<Record<string, Field>> = {
  pix_key: 'pixKey',
  merchant_name: 'merchantName',
  merchant_city: 'merchantCity',
  transaction_amount: 'amount',
  additional_info: 'description',
};

export const INVALID_AMOUNT = 'Digite o valor em reais, como 12,50.';
export const CREATE_FORBIDDEN = 'Seu papel nesta conta não permite criar QR codes.';

const orNull = (value: string) => (value.trim() === '' ? null : value.trim());

export interface QrCodeFormProps {
  accountId: string;
  /** Prefilled recipient name and city (the settings' defaults, in the person's own account). */
  defaultMerchantName?: string | null;
  defaultMerchantCity?: string | null;
}

/** Creates a static QR code in the account; the server's BR Code checks come back under each field. */
export function QrCodeForm({ accountId, defaultMerchantName, defaultMerchantCity }: QrCodeFormProps) {
  const [create, { isLoading }] = useCreateQrCodeMutation();
  const [pixKey, setPixKey] = useState('');
  const [merchantName, setMerchantName] = useState(defaultMerchantName ?? '');
  const [merchantCity, setMerchantCity] = useState(defaultMerchantCity ?? '');
  const [amount, setAmount] = useState('');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [failure, setFailure] = useState<string | null>(null);
  const [created, setCreated] = useState<QrCode | null>(null);
  const [attempt, setAttempt] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, attempt);

  // The defaults may arrive after the form is on screen: they fill the fields still empty.
  const defaultsKey = JSON.stringify([defaultMerchantName ?? '', defaultMerchantCity ?? '']);
  const [appliedDefaults, setAppliedDefaults] = useState(defaultsKey);
  if (defaultsKey !== appliedDefaults) {
    setAppliedDefaults(defaultsKey);
    if (merchantName === '') setMerchantName(defaultMerchantName ?? '');
    if (merchantCity === '') setMerchantCity(defaultMerchantCity ?? '');
  }

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: FieldErrors = {
      ...NO_ERRORS,
      pixKey: checkRequired(pixKey),
      merchantName: checkRequired(merchantName),
      merchantCity: checkRequired(merchantCity),
      amount: amount.trim() === '' || isBrazilianAmount(amount) ? null : INVALID_AMOUNT,
    };
    setErrors(found);
    setFailure(null);
    setCreated(null);
    if (Object.values(found).some(Boolean)) {
      setAttempt((count) => count + 1);
      return;
    }
    const qrcode: NewQrCode = {
      pixKey: pixKey.trim(),
      merchantName: merchantName.trim(),
      merchantCity: merchantCity.trim(),
      amount: orNull(amount),
      description: orNull(description),
    };
    try {
      setCreated(await create({ accountId, qrcode }).unwrap());
      setAmount('');
      setDescription('');
    } catch (caught) {
      const error = asApiError(caught);
      const field = errorField(error, FIELDS, FIELD_ALIASES);
      if (field !== null) {
        setErrors({ ...NO_ERRORS, [field]: errorMessage(error) });
        setAttempt((count) => count + 1);
      } else if (isForbidden(error)) setFailure(CREATE_FORBIDDEN);
      else if (isNotFound(error)) setFailure(WORKSPACE_NOT_FOUND);
      else setFailure(errorMessage(error));
    }
  };

  return (
    <form ref={formRef} noValidate onSubmit={(event) => void submit(event)} aria-label="Criar QR code">
      {failure ? <FormAlert>{failure}</FormAlert> : null}
      {created ? (
        <div className="notice" role="status">
          <p>
            QR code criado
            {created.amountCentavos === null ? '' : ` (${formatCentavos(created.amountCentavos)})`}.
          </p>
          <p className="actions">
            <a href={paths.server.payment(created.id)}>Abrir a página de pagamento</a>
            <a href={paths.server.paymentSign(created.id)}>Imprimir a placa</a>
          </p>
        </div>
      ) : null}
      <TextField
        label="Chave Pix"
        name="pixKey"
        autoCapitalize="off"
        spellCheck={false}
        value={pixKey}
        onChange={(event) => setPixKey(event.target.value)}
        error={errors.pixKey}
        hint="CPF, CNPJ, e-mail, celular ou chave aleatória."
      />
      <TextField
        label="Nome de quem recebe"
        name="merchantName"
        value={merchantName}
        onChange={(event) => setMerchantName(event.target.value)}
        error={errors.merchantName}
      />
      <TextField
        label="Cidade"
        name="merchantCity"
        value={merchantCity}
        onChange={(event) => setMerchantCity(event.target.value)}
        error={errors.merchantCity}
      />
      <TextField
        label="Valor (opcional)"
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        value={amount}
        onChange={(event) => setAmount(event.target.value)}
        error={errors.amount}
        hint="Em reais, como 12,50. Em branco, quem paga digita o valor."
      />
      <TextField
        label="Descrição (opcional)"
        name="description"
        value={description}
        onChange={(event) => setDescription(event.target.value)}
        error={errors.description}
        hint="Aparece para quem paga."
      />
      <button type="submit" className="button" disabled={isLoading}>
        {isLoading ? 'Criando…' : 'Criar QR code'}
      </button>
    </form>
  );
}
