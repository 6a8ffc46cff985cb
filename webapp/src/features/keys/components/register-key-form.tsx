import { useState } from 'react';
import { Link } from 'react-router';
import { z } from 'zod';

import { FormAlert } from '@/components/form-alert';
import { FormOutcome } from '@/components/form-outcome';
import { displayKey } from '@/components/key-choice-name';
import { SelectField } from '@/components/select-field';
import { TextField } from '@/components/text-field';
import { paths } from '@/config/paths';
import { useApiForm } from '@/hooks/use-api-form';
import { errorMessage } from '@/lib/error-messages';
import { optionalText, requiredText } from '@/utils/field-rules';

import { type NewPixKey, useRegisterPixKeyMutation } from '../api/keys';
import { KIND_CHOICES, type KindChoice, formatTyped, inputModeOf, maskAsTyped, notOfKind } from '../utils/key-kinds';

export const MAX_HOLDER_NAME = 100;
export const MAX_LABEL = 40;
export const HOLDER_TOO_LONG = `Use no máximo ${MAX_HOLDER_NAME} caracteres.`;
export const LABEL_TOO_LONG = `Use no máximo ${MAX_LABEL} caracteres.`;

const length = (value: string | null) => (value === null ? 0 : Array.from(value).length);

const keySchema = z
  .object({
    keyKind: z.string(),
    pixKey: requiredText(),
    holderName: requiredText().refine((name) => length(name) <= MAX_HOLDER_NAME, HOLDER_TOO_LONG),
    label: optionalText().refine((label) => length(label) <= MAX_LABEL, LABEL_TOO_LONG),
    makeDefault: z.boolean(),
  })
  .superRefine(({ keyKind, pixKey }, context) => {
    const problem = notOfKind(keyKind as KindChoice, pixKey);
    if (problem !== null) context.addIssue({ code: 'custom', message: problem, path: ['pixKey'] });
  })
  .transform(({ keyKind, ...key }) => ({
    ...key,
    keyKind: keyKind === '' ? null : keyKind,
  })) satisfies z.ZodType<NewPixKey>;

/** Under the key, by kind chosen. */
const HINTS: Readonly<Record<KindChoice, string | undefined>> = {
  '': 'CPF, CNPJ, e-mail, celular com DDD ou chave aleatória, como aparece no app do banco.',
  cpf: 'Os 11 números do CPF, com ou sem pontos.',
  cnpj: 'O CNPJ pode ter letras nos 12 primeiros caracteres.',
  email: undefined,
  telefone: 'Com DDD, como (11) 91234-5678.',
  aleatoria: undefined,
};

/** Registers a Pix key in the account: the engine's checks come back under each field, a duplicate too. */
export function RegisterKeyForm({ accountId, isFirst }: { accountId: string; isFirst: boolean }) {
  const [register, { isLoading }] = useRegisterPixKeyMutation();
  const [kind, setKind] = useState<KindChoice>('');
  const form = useApiForm({
    schema: keySchema,
    defaultValues: { keyKind: '', pixKey: '', holderName: '', label: '', makeDefault: false },
    send: (key) => register({ accountId, key }).unwrap(),
    clearOnSuccess: ['pixKey', 'label', 'makeDefault'],
    codeFields: { 'pix-key-already-registered': { field: 'pixKey' } },
  });
  const keyField = form.field('pixKey');
  const kindField = form.field('keyKind');
  const { error: makeDefaultError, ...makeDefault } = form.field('makeDefault');
  const created = form.outcome;

  return (
    <form {...form.formProps} aria-label="Cadastrar chave Pix">
      {form.failure ? <FormAlert takeFocus>{errorMessage(form.failure)}</FormAlert> : null}
      {created ? (
        <FormOutcome key={created.id}>
          <p>
            Chave {displayKey(created.kind, created.pixKey)} cadastrada
            {created.isDefault ? ': é a chave padrão desta conta.' : '.'}
          </p>
          <p>
            <Link to={paths.panel.qrCodes}>Criar um QR code</Link>
          </p>
        </FormOutcome>
      ) : null}
      <SelectField
        label="Tipo da chave"
        {...kindField}
        onChange={(event) => {
          void kindField.onChange(event);
          setKind(event.target.value as KindChoice);
        }}
      >
        {KIND_CHOICES.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </SelectField>
      {/* Free text whatever the kind: what was typed stays (an e-mail under CPF is kept and said not to be
          one); a CPF, CNPJ or mobile follows its mask as it is typed. */}
      <TextField
        label="Chave Pix"
        autoComplete="off"
        spellCheck={false}
        autoCapitalize="off"
        inputMode={inputModeOf(kind)}
        hint={HINTS[kind]}
        {...keyField}
        onChange={(event) => {
          // Masked as typed at the end of the text (an edit in the middle keeps the caret where it is).
          const input = event.target;
          if (input.selectionStart === input.value.length) {
            const masked = maskAsTyped(kind, input.value);
            if (masked !== input.value) input.value = masked;
          }
          void keyField.onChange(event);
        }}
        onBlur={(event) => {
          const typed = event.target.value;
          const formatted = formatTyped(kind, typed);
          if (formatted !== typed) form.setValue('pixKey', formatted);
          void keyField.onBlur(event);
        }}
      />
      <TextField
        label="Nome do titular, como o banco mostra"
        autoComplete="name"
        hint="É o nome que aparece para quem paga, na confirmação do Pix."
        {...form.field('holderName')}
      />
      <TextField
        label="Apelido (opcional)"
        autoComplete="off"
        hint="Para você reconhecer a chave, por exemplo “Caixa da loja”."
        {...form.field('label')}
      />
      {isFirst ? (
        <p className="hint">A primeira chave cadastrada vira a chave padrão da conta.</p>
      ) : (
        <div className={['field', 'checkbox', makeDefaultError ? 'invalid' : null].filter(Boolean).join(' ')}>
          <label>
            <input type="checkbox" {...makeDefault} /> Usar como chave padrão
          </label>
        </div>
      )}
      <button type="submit" className="button" disabled={isLoading}>
        {isLoading ? 'Cadastrando…' : 'Cadastrar chave'}
      </button>
    </form>
  );
}
