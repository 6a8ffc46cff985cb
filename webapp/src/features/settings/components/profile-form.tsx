import { type SubmitEvent, useRef, useState } from 'react';

import { FormAlert } from '@/components/form-alert';
import { MaskedField } from '@/components/masked-field';
import { TextField } from '@/components/text-field';
import { useFocusFirstInvalid } from '@/hooks/use-focus-first-invalid';
import { type ApiError, asApiError, errorField } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';
import { applyMask } from '@/lib/masks';
import { MAX_NAME_LENGTH, checkName } from '@/utils/field-rules';

import type { AccountSettings } from '../api/get-settings';
import { type SettingsChanges, useUpdateSettingsMutation } from '../api/update-settings';
import { isCompletePhone, nationalDigits } from '../utils/phone';
import { MerchantPreview } from './merchant-preview';

const FIELDS = ['displayName', 'phoneNumber', 'defaultMerchantName', 'defaultMerchantCity'] as const;
type Field = (typeof FIELDS)[number];
type FieldErrors = Record<Field, string | null>;

const NO_ERRORS: FieldErrors = {
  displayName: null,
  phoneNumber: null,
  defaultMerchantName: null,
  defaultMerchantCity: null,
};

export const INCOMPLETE_PHONE = 'Digite o telefone com DDD: 10 ou 11 dígitos.';

const orNull = (value: string) => (value.trim() === '' ? null : value.trim());

/**
 * Name, phone, and the recipient name and city new QR codes start with (with a live preview of how
 * a BR Code will write them). One PATCH saves them all.
 */
export function ProfileForm({ settings }: { settings: AccountSettings }) {
  const [update, { isLoading }] = useUpdateSettingsMutation();
  const [displayName, setDisplayName] = useState(settings.displayName ?? '');
  const [phone, setPhone] = useState(() => nationalDigits(settings.phoneNumber));
  const [merchantName, setMerchantName] = useState(settings.defaultMerchantName ?? '');
  const [merchantCity, setMerchantCity] = useState(settings.defaultMerchantCity ?? '');
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [saved, setSaved] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, attempt);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: FieldErrors = {
      ...NO_ERRORS,
      displayName: checkName(displayName),
      phoneNumber: phone === '' || isCompletePhone(phone) ? null : INCOMPLETE_PHONE,
    };
    setErrors(found);
    setFailure(null);
    setSaved(false);
    if (Object.values(found).some(Boolean)) {
      setAttempt((count) => count + 1);
      return;
    }
    const changes: SettingsChanges = {
      displayName: displayName.trim(),
      phoneNumber: phone === '' ? null : phone,
      defaultMerchantName: orNull(merchantName),
      defaultMerchantCity: orNull(merchantCity),
    };
    try {
      await update(changes).unwrap();
      setSaved(true);
    } catch (caught) {
      const error = asApiError(caught);
      const field = errorField(error, FIELDS);
      if (field === null) {
        setFailure(error);
        return;
      }
      setErrors({ ...NO_ERRORS, [field]: errorMessage(error) });
      setAttempt((count) => count + 1);
    }
  };

  return (
    <form ref={formRef} noValidate onSubmit={(event) => void submit(event)} aria-label="Seus dados">
      {failure ? <FormAlert>{errorMessage(failure)}</FormAlert> : null}
      <TextField
        label="Seu nome"
        name="displayName"
        autoComplete="name"
        maxLength={MAX_NAME_LENGTH * 2}
        value={displayName}
        onChange={(event) => setDisplayName(event.target.value)}
        error={errors.displayName}
      />
      <MaskedField
        label="Telefone (opcional)"
        name="phoneNumber"
        kind="phone"
        defaultValue={applyMask('phone', phone).masked}
        onValueChange={(value) => setPhone(value.unmasked)}
        error={errors.phoneNumber}
        hint="Com DDD. Usamos só para falar com você sobre a conta."
      />
      <fieldset className="group">
        <legend>Dados de quem recebe, para os novos QR codes</legend>
        <p className="hint">Já vêm preenchidos quando você cria um QR code na sua conta. Dá para mudar em cada um.</p>
        <TextField
          label="Nome de quem recebe"
          name="defaultMerchantName"
          autoComplete="organization"
          value={merchantName}
          onChange={(event) => setMerchantName(event.target.value)}
          error={errors.defaultMerchantName}
        />
        <TextField
          label="Cidade"
          name="defaultMerchantCity"
          autoComplete="address-level2"
          value={merchantCity}
          onChange={(event) => setMerchantCity(event.target.value)}
          error={errors.defaultMerchantCity}
        />
        <MerchantPreview name={merchantName} city={merchantCity} />
      </fieldset>
      {saved ? (
        <p className="notice" role="status">
          Dados salvos.
        </p>
      ) : null}
      <button type="submit" className="button" disabled={isLoading}>
        {isLoading ? 'Salvando…' : 'Salvar dados'}
      </button>
    </form>
  );
}
