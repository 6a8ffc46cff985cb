import { z } from 'zod';

import { FormAlert } from '@/components/form-alert';
import { FormOutcome } from '@/components/form-outcome';
import { SecretOnce } from '@/components/secret-once';
import { TextField } from '@/components/text-field';
import { useApiForm } from '@/hooks/use-api-form';
import type { ApiError } from '@/lib/api-error';
import { WORKSPACE_NOT_FOUND, errorMessage, isForbidden, isNotFound } from '@/lib/error-messages';
import { checkedValues, requiredText } from '@/utils/field-rules';

import { type NewWebhook, type WebhookEvent, useCreateWebhookMutation } from '../api/webhooks';

export const CREATE_FORBIDDEN = 'Seu papel nesta conta não permite cadastrar webhooks.';
export const NO_EVENT = 'Escolha ao menos um evento para o endereço.';

/** What each event tells, as the screen says it. */
export const EVENT_LABELS: Record<WebhookEvent, string> = {
  'pagamento.recebido': 'Pagamento recebido',
  'pagamento.devolvido': 'Pagamento devolvido',
};

const EVENTS = Object.keys(EVENT_LABELS) as WebhookEvent[];

const webhookSchema = z.object({
  url: requiredText(),
  events: checkedValues(EVENTS as [WebhookEvent, ...WebhookEvent[]], NO_EVENT),
}) satisfies z.ZodType<NewWebhook>;

function failureMessage(error: ApiError): string {
  if (isForbidden(error)) return CREATE_FORBIDDEN;
  if (isNotFound(error)) return WORKSPACE_NOT_FOUND;
  return errorMessage(error);
}

/** Registers an address; its signing secret is shown here once. */
export function WebhookForm({ accountId }: { accountId: string }) {
  const [create, { isLoading }] = useCreateWebhookMutation();
  const form = useApiForm({
    schema: webhookSchema,
    defaultValues: { url: '', events: ['pagamento.recebido'] as string[] },
    send: (webhook) => create({ accountId, webhook }).unwrap(),
    clearOnSuccess: ['url'],
  });
  const { error: eventsError, ...eventInput } = form.field('events');
  const created = form.outcome;

  return (
    <form {...form.formProps} aria-label="Cadastrar webhook">
      {form.failure ? <FormAlert takeFocus>{failureMessage(form.failure)}</FormAlert> : null}
      {created ? (
        <FormOutcome key={created.id}>
          <p>
            Endereço cadastrado. Guarde este segredo no seu sistema para conferir a assinatura de cada aviso: ele não
            será mostrado de novo.
          </p>
          <SecretOnce secret={created.secret} copyLabel="Copiar segredo" copiedLabel="Segredo copiado" />
        </FormOutcome>
      ) : null}
      <TextField
        label="Endereço que recebe os avisos"
        type="url"
        inputMode="url"
        autoComplete="off"
        {...form.field('url')}
        hint="Um endereço https do seu sistema, como https://loja.com.br/avisos-pix."
      />
      <fieldset className={['group', eventsError ? 'invalid' : null].filter(Boolean).join(' ')}>
        <legend>Avisar quando</legend>
        {EVENTS.map((event) => (
          <div className="field checkbox" key={event}>
            <label>
              <input type="checkbox" value={event} {...eventInput} /> {EVENT_LABELS[event]}
            </label>
          </div>
        ))}
        {eventsError ? <p className="error">{eventsError}</p> : null}
      </fieldset>
      <button type="submit" className="button" disabled={isLoading}>
        {isLoading ? 'Cadastrando…' : 'Cadastrar webhook'}
      </button>
    </form>
  );
}
