import { useWatch } from 'react-hook-form';
import { z } from 'zod';

import { FormAlert } from '@/components/form-alert';
import { FormOutcome } from '@/components/form-outcome';
import { SelectField } from '@/components/select-field';
import { TextField } from '@/components/text-field';
import { useApiForm } from '@/hooks/use-api-form';
import type { ApiError } from '@/lib/api-error';
import { WORKSPACE_NOT_FOUND, errorMessage, isForbidden, isNotFound } from '@/lib/error-messages';
import { optionalText, requiredText } from '@/utils/field-rules';
import { formatCentavos } from '@/utils/money';

import { type SavedSign, type SignChoices, useCreateSignMutation, useUpdateSignMutation } from '../api/signs';
import {
  DEFAULT_CHOICES,
  MAX_FOOTER,
  MAX_HEADLINE,
  MAX_SIGN_NAME,
  SIZES,
  TEMPLATES,
  THEMES,
} from '../utils/sign-options';
import { SignPreview } from './sign-preview';

export const CHOOSE_CODE = 'Escolha um QR code.';
export const SAVE_FORBIDDEN = 'Seu papel nesta conta não permite criar placas deste QR code.';

/** A code the sign can print, as the app's list of codes gives it. */
export interface SignCodeChoice {
  id: string;
  merchantName: string;
  amountCentavos: number | null;
  /** What the code is for, as its creator wrote it ("Bolo de pote"). */
  description?: string | null;
  txid?: string;
}

/** Whether text fits `max` characters (code points, as the server counts). */
const fits = (max: number) => (value: string | null) => value === null || Array.from(value).length <= max;

const signSchema = z.object({
  qrcodeId: z.string().trim().min(1, { error: CHOOSE_CODE }),
  name: requiredText().refine(fits(MAX_SIGN_NAME), `Use no máximo ${MAX_SIGN_NAME} caracteres.`),
  template: z.string(),
  size: z.string(),
  theme: z.string(),
  headline: optionalText().refine(fits(MAX_HEADLINE), `O título pode ter até ${MAX_HEADLINE} caracteres.`),
  footer: optionalText().refine(fits(MAX_FOOTER), `O rodapé pode ter até ${MAX_FOOTER} caracteres.`),
  withLogo: z.boolean(),
});

/**
 * How a code reads in the picker: what it is for (its description, as its creator named it), the
 * amount and who receives; the txid only tells apart codes made without a description.
 */
export function codeLabel(code: SignCodeChoice): string {
  const amount = code.amountCentavos === null ? 'valor livre' : formatCentavos(code.amountCentavos);
  const description = code.description?.trim();
  return description
    ? [description, amount, code.merchantName].join(' · ')
    : [code.merchantName, amount, code.txid].filter(Boolean).join(' · ');
}

function failureMessage(error: ApiError): string {
  if (isForbidden(error)) return SAVE_FORBIDDEN;
  if (isNotFound(error)) return WORKSPACE_NOT_FOUND;
  return errorMessage(error);
}

export interface SignFormProps {
  accountId: string;
  /** The account's codes the person may print. */
  codes: readonly SignCodeChoice[];
  /** Editing this sign (its code stays); absent, the form makes a new one. */
  sign?: SavedSign;
  /** The code chosen first (from "Criar placa" on a code). */
  initialQrcodeId?: string | null;
  /** After a change is saved (editing only). */
  onSaved?: (sign: SavedSign) => void;
  onCancel?: () => void;
}

/** Makes or changes a sign, with the live preview beside the choices. */
export function SignForm({ accountId, codes, sign, initialQrcodeId, onSaved, onCancel }: SignFormProps) {
  const [create, creating] = useCreateSignMutation();
  const [update, updating] = useUpdateSignMutation();
  const editing = sign !== undefined;
  const start: SignChoices = sign ?? DEFAULT_CHOICES;
  const firstCode = sign?.qrcodeId ?? (codes.some((c) => c.id === initialQrcodeId) ? initialQrcodeId : null) ?? '';
  const firstName = sign?.name ?? (firstCode === '' ? '' : (codes.find((c) => c.id === firstCode)?.merchantName ?? ''));
  const form = useApiForm({
    schema: signSchema,
    defaultValues: {
      qrcodeId: firstCode,
      name: firstName,
      template: start.template,
      size: start.size,
      theme: start.theme,
      headline: start.headline ?? '',
      footer: start.footer ?? '',
      withLogo: start.withLogo,
    },
    send: async ({ qrcodeId, ...change }) => {
      if (sign === undefined) return create({ accountId, sign: { qrcodeId, ...change } }).unwrap();
      const saved = await update({ accountId, signId: sign.id, change }).unwrap();
      onSaved?.(saved);
      return saved;
    },
  });
  const values = useWatch({ control: form.control });
  const choices: SignChoices = {
    template: values.template ?? start.template,
    size: values.size ?? start.size,
    theme: values.theme ?? start.theme,
    headline: values.headline ?? null,
    footer: values.footer ?? null,
    withLogo: values.withLogo ?? true,
  };
  const busy = creating.isLoading || updating.isLoading;
  // A sign's code may be archived or beyond the first page of codes: it is still offered.
  const options =
    sign !== undefined && !codes.some((c) => c.id === sign.qrcodeId)
      ? [
          {
            id: sign.qrcodeId,
            merchantName: sign.code?.merchantName ?? 'QR code desta placa',
            amountCentavos: sign.code?.amountCentavos ?? null,
            description: sign.code?.description,
            txid: sign.code?.txid,
          },
          ...codes,
        ]
      : codes;
  const qrcodeField = form.field('qrcodeId');
  const { error: logoError, ...logoInput } = form.field('withLogo');
  const label = editing ? `Alterar a placa ${sign.name}` : 'Criar placa';
  const saved = form.outcome;

  return (
    <form {...form.formProps} aria-label={label} className="sign-form">
      {form.failure ? <FormAlert takeFocus>{failureMessage(form.failure)}</FormAlert> : null}
      {saved && !editing ? (
        <FormOutcome key={saved.id}>
          <p>Placa “{saved.name}” salva. Ela está em “Placas salvas”, com os arquivos para baixar e imprimir.</p>
        </FormOutcome>
      ) : null}
      <div className="sign-form-grid">
        <div className="sign-form-fields">
          <SelectField
            label="QR code"
            {...qrcodeField}
            disabled={editing}
            hint={editing ? 'Uma placa salva imprime sempre o mesmo QR code.' : undefined}
            onChange={(event) => {
              void qrcodeField.onChange(event);
              const code = options.find((c) => c.id === event.target.value);
              if (code && form.getValues('name').trim() === '') form.setValue('name', code.merchantName);
            }}
          >
            {editing ? null : <option value="">Escolha um QR code</option>}
            {options.map((code) => (
              <option key={code.id} value={code.id}>
                {codeLabel(code)}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Nome da placa"
            autoComplete="off"
            {...form.field('name')}
            hint="Só para você achar a placa na lista, como “Balcão da frente”. Não sai impresso."
          />
          <SelectField label="Modelo" {...form.field('template')}>
            {TEMPLATES.map((item) => (
              <option key={item.slug} value={item.slug}>
                {item.label}
              </option>
            ))}
          </SelectField>
          <SelectField label="Tamanho do papel" {...form.field('size')}>
            {SIZES.map((item) => (
              <option key={item.slug} value={item.slug}>
                {item.label}
              </option>
            ))}
          </SelectField>
          <SelectField label="Cores" {...form.field('theme')}>
            {THEMES.map((item) => (
              <option key={item.slug} value={item.slug}>
                {item.label}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Título (opcional)"
            autoComplete="off"
            {...form.field('headline')}
            hint={`Em branco: “Pague com Pix”. Até ${MAX_HEADLINE} caracteres.`}
          />
          <TextField
            label="Rodapé (opcional)"
            autoComplete="off"
            {...form.field('footer')}
            hint={`Horário, rede social… Até ${MAX_FOOTER} caracteres.`}
          />
          <div className="field checkbox">
            <label>
              <input type="checkbox" {...logoInput} /> Mostrar o logotipo da conta
            </label>
            <p className="hint">Aparece quando a conta tem um logotipo e o plano Premium.</p>
            {logoError ? <p className="field-error">{logoError}</p> : null}
          </div>
        </div>
        <SignPreview qrcodeId={values.qrcodeId ?? null} choices={choices} />
      </div>
      <p className="actions">
        <button type="submit" className="button" disabled={busy}>
          {busy ? 'Salvando…' : editing ? 'Salvar alterações' : 'Salvar placa'}
        </button>
        {onCancel ? (
          <button type="button" className="button secondary" onClick={onCancel}>
            Cancelar
          </button>
        ) : null}
      </p>
    </form>
  );
}
