import { useWatch } from 'react-hook-form';
import { z } from 'zod';

import { FormAlert } from '@/components/form-alert';
import { MaskedField } from '@/components/masked-field';
import { TextField } from '@/components/text-field';
import { useApiForm } from '@/hooks/use-api-form';
import { errorMessage } from '@/lib/error-messages';
import { applyMask } from '@/lib/masks';
import { MAX_NAME_LENGTH, optionalText, personName } from '@/utils/field-rules';

import type { AccountSettings } from '../api/get-settings';
import { type SettingsChanges, useUpdateSettingsMutation } from '../api/update-settings';
import { isCompletePhone, nationalDigits } from '../utils/phone';
import { MerchantPreview } from './merchant-preview';

export const INCOMPLETE_PHONE = 'Digite o telefone com DDD: 10 ou 11 dígitos.';

/** The phone field holds the mask's bare digits: none (no phone), or 10 or 11 with the area code. */
const phoneDigits = () =>
  z
    .string()
    .refine((digits) => digits === '' || isCompletePhone(digits), INCOMPLETE_PHONE)
    .transform((digits) => (digits === '' ? null : digits));

const profileSchema = z.object({
  displayName: personName(),
  phoneNumber: phoneDigits(),
  defaultMerchantName: optionalText(),
  defaultMerchantCity: optionalText(),
}) satisfies z.ZodType<SettingsChanges>;

/**
 * Name, phone, and the recipient name and city new QR codes start with (with a live preview of how
 * a BR Code will write them). One PATCH saves them all.
 */
export function ProfileForm({ settings }: { settings: AccountSettings }) {
  const [update, { isLoading }] = useUpdateSettingsMutation();
  const form = useApiForm({
    schema: profileSchema,
    defaultValues: {
      displayName: settings.displayName ?? '',
      phoneNumber: nationalDigits(settings.phoneNumber),
      defaultMerchantName: settings.defaultMerchantName ?? '',
      defaultMerchantCity: settings.defaultMerchantCity ?? '',
    },
    send: async (changes) => {
      await update(changes).unwrap();
      return true;
    },
  });
  const [merchantName, merchantCity] = useWatch({
    control: form.control,
    name: ['defaultMerchantName', 'defaultMerchantCity'],
  });

  return (
    <form {...form.formProps} aria-label="Seus dados">
      {form.failure ? <FormAlert takeFocus>{errorMessage(form.failure)}</FormAlert> : null}
      <TextField label="Seu nome" autoComplete="name" maxLength={MAX_NAME_LENGTH * 2} {...form.field('displayName')} />
      <MaskedField
        label="Telefone (opcional)"
        name="phoneNumber"
        kind="phone"
        // maska edits the input itself, so the form keeps the digits it reports, not the masked text.
        defaultValue={applyMask('phone', form.getValues('phoneNumber')).masked}
        onValueChange={(value) => form.setValue('phoneNumber', value.unmasked)}
        error={form.errorOf('phoneNumber')}
        hint="Com DDD. Usamos só para falar com você sobre a conta."
      />
      <fieldset className="group">
        <legend>Dados de quem recebe, para os novos QR codes</legend>
        <p className="hint">Já vêm preenchidos quando você cria um QR code na sua conta. Dá para mudar em cada um.</p>
        <TextField label="Nome de quem recebe" autoComplete="organization" {...form.field('defaultMerchantName')} />
        <TextField label="Cidade" autoComplete="address-level2" {...form.field('defaultMerchantCity')} />
        <MerchantPreview name={merchantName} city={merchantCity} />
      </fieldset>
      {form.outcome ? (
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
