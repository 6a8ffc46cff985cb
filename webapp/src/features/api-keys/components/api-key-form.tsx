import { z } from 'zod';

import { FormAlert } from '@/components/form-alert';
import { FormOutcome } from '@/components/form-outcome';
import { SecretOnce } from '@/components/secret-once';
import { TextField } from '@/components/text-field';
import { useApiForm } from '@/hooks/use-api-form';
import type { ApiError } from '@/lib/api-error';
import { WORKSPACE_NOT_FOUND, errorMessage, isForbidden, isNotFound } from '@/lib/error-messages';
import { checkedValues, optionalText, requiredText } from '@/utils/field-rules';

import { type ApiKeyScope, type NewApiKey, useCreateApiKeyMutation } from '../api/api-keys';

export const CREATE_FORBIDDEN = 'Seu papel nesta conta não permite criar chaves de API.';
export const NO_SCOPE = 'Escolha ao menos uma permissão para a chave.';

/** What each scope allows, as the screen says it before the server's list arrives. */
export const SCOPE_LABELS: Record<ApiKeyScope, string> = {
  'qrcodes:read': 'Ver os QR codes',
  'qrcodes:write': 'Criar QR codes (e vê-los)',
  'payments:read': 'Ver os pagamentos, os totais e o CSV',
  'payment-links:write': 'Criar e cancelar links de pagamento',
  'webhooks:write': 'Cadastrar endereços de webhook e ver as entregas',
};

const SCOPES = Object.keys(SCOPE_LABELS) as ApiKeyScope[];

const keySchema = z.object({
  name: requiredText(),
  scopes: checkedValues(SCOPES as [ApiKeyScope, ...ApiKeyScope[]], NO_SCOPE),
  expiresOn: optionalText(),
}) satisfies z.ZodType<NewApiKey>;

function failureMessage(error: ApiError): string {
  if (isForbidden(error)) return CREATE_FORBIDDEN;
  if (isNotFound(error)) return WORKSPACE_NOT_FOUND;
  return errorMessage(error);
}

/** Makes a key; its secret is shown here once, with the account id a program puts in its paths. */
export function ApiKeyForm({ accountId }: { accountId: string }) {
  const [create, { isLoading }] = useCreateApiKeyMutation();
  const form = useApiForm({
    schema: keySchema,
    defaultValues: { name: '', scopes: [] as string[], expiresOn: '' },
    send: (key) => create({ accountId, key }).unwrap(),
    clearOnSuccess: ['name', 'scopes', 'expiresOn'],
  });
  const scopes = form.field('scopes');
  const { error: scopesError, ...scopeInput } = scopes;
  const created = form.outcome;

  return (
    <form {...form.formProps} aria-label="Criar chave de API">
      {form.failure ? <FormAlert takeFocus>{failureMessage(form.failure)}</FormAlert> : null}
      {created ? (
        <FormOutcome key={created.id}>
          <p>
            Chave <strong>{created.name}</strong> criada. Copie-a agora e guarde-a como uma senha: ela não será mostrada
            de novo.
          </p>
          <SecretOnce secret={created.secret} copyLabel="Copiar chave" copiedLabel="Chave copiada" />
          <p className="hint">
            Envie-a no cabeçalho <code>Authorization: Bearer …</code> das chamadas a <code>/api/v1</code>. O código
            desta conta nos endereços é <code>{created.accountId}</code>.
          </p>
        </FormOutcome>
      ) : null}
      <TextField
        label="Nome da chave"
        autoComplete="off"
        maxLength={120}
        {...form.field('name')}
        hint="Como o do sistema que vai usá-la: Loja virtual, PDV do caixa 2."
      />
      <fieldset className={['group', scopesError ? 'invalid' : null].filter(Boolean).join(' ')}>
        <legend>O que a chave pode fazer</legend>
        {SCOPES.map((scope) => (
          <div className="field checkbox" key={scope}>
            <label>
              <input type="checkbox" value={scope} {...scopeInput} /> {SCOPE_LABELS[scope]}
            </label>
          </div>
        ))}
        {scopesError ? <p className="error">{scopesError}</p> : null}
      </fieldset>
      <TextField
        label="Válida até (opcional)"
        type="date"
        {...form.field('expiresOn')}
        hint="Depois deste dia a chave para de funcionar. Em branco, vale até você revogá-la."
      />
      <button type="submit" className="button" disabled={isLoading}>
        {isLoading ? 'Criando…' : 'Criar chave de API'}
      </button>
    </form>
  );
}
