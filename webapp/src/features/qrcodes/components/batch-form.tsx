import type { ReactNode } from 'react';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';

import { FormAlert } from '@/components/form-alert';
import { FormOutcome } from '@/components/form-outcome';
import { KeyPicker, TYPED_KEY, chosenKey, keySchema, useRecipientFields } from '@/components/key-picker';
import { TextField } from '@/components/text-field';
import { paths } from '@/config/paths';
import { FieldProblems, useApiForm } from '@/hooks/use-api-form';
import { errorMessage } from '@/lib/error-messages';
import type { KeyChoice } from '@/types/pix-key';
import { optionalText, requiredText } from '@/utils/field-rules';
import { formatCentavos, isBrazilianAmount } from '@/utils/money';

import { type CreatedBatch, useCheckQrCodeMutation, useCreateBatchMutation } from '../api/manage-qrcodes';
import { INVALID_AMOUNT } from './qrcode-form';

/** The most codes one batch makes (`domain::qrcode::batch::MAX_BATCH`). */
export const MAX_BATCH = 100;

const batchSchema = z
  .object({
    merchantName: requiredText(),
    merchantCity: requiredText(),
    amount: optionalText().refine((amount) => amount === null || isBrazilianAmount(amount), INVALID_AMOUNT),
    prefix: optionalText(),
    count: optionalText().refine(
      (count) => count === null || (/^\d+$/.test(count) && Number(count) >= 1 && Number(count) <= MAX_BATCH),
      `Digite um número de 1 a ${MAX_BATCH}.`,
    ),
    lines: optionalText(),
  })
  .refine((values) => values.lines !== null || (values.prefix !== null && values.count !== null), {
    message: 'Cole a lista (uma linha por QR code) ou informe o prefixo e a quantidade.',
    path: ['lines'],
  })
  .and(keySchema);

type BatchValues = z.output<typeof batchSchema>;

export interface BatchFormProps {
  accountId: string;
  defaultMerchantName?: string | null;
  defaultMerchantCity?: string | null;
  renderPreview?: (name: string, city: string) => ReactNode;
  /** The account's registered keys (the default one is chosen first); none: the key is typed. */
  keys?: readonly KeyChoice[];
}

/** Many codes at once: a prefix and a count ("MESA" × 20) or a pasted list (`Coxinha;6,50`), all or none. */
export function BatchForm({
  accountId,
  defaultMerchantName,
  defaultMerchantCity,
  renderPreview,
  keys,
}: BatchFormProps) {
  const [createBatch, { isLoading }] = useCreateBatchMutation();
  const [check] = useCheckQrCodeMutation();
  const send = async (values: BatchValues): Promise<CreatedBatch> => {
    const request = {
      ...chosenKey({ keyId: values.keyId, pixKey: values.pixKey }),
      merchantName: values.merchantName,
      merchantCity: values.merchantCity,
      amount: values.amount,
      prefix: values.lines === null ? values.prefix : null,
      count: values.lines === null && values.count !== null ? Number(values.count) : null,
      lines: values.lines,
    };
    const checked = await check({ accountId, request })
      .unwrap()
      .catch(() => null);
    if (checked !== null && checked.problems.length > 0) {
      // A line's own values (its price, its label) are reported under the list.
      throw new FieldProblems(
        checked.problems.map((problem) =>
          problem.line === undefined ? problem : { ...problem, field: values.lines === null ? 'prefix' : 'lines' },
        ),
      );
    }
    return createBatch({ accountId, request }).unwrap();
  };
  const form = useApiForm({
    schema: batchSchema,
    defaultValues: {
      keyId: TYPED_KEY,
      pixKey: '',
      merchantName: defaultMerchantName ?? '',
      merchantCity: defaultMerchantCity ?? '',
      amount: '',
      prefix: '',
      count: '',
      lines: '',
    },
    send,
    fieldAliases: { description: 'lines' },
  });
  const chooseKey = useRecipientFields(form, keys, defaultMerchantName, defaultMerchantCity);
  const [name, city, chosen] = useWatch({ control: form.control, name: ['merchantName', 'merchantCity', 'keyId'] });
  const created = form.outcome;
  const linesError = form.errorOf('lines');

  return (
    <form {...form.formProps} aria-label="Criar QR codes em lote">
      {form.failure ? <FormAlert takeFocus>{errorMessage(form.failure)}</FormAlert> : null}
      <KeyPicker
        keys={keys}
        keyId={form.field('keyId')}
        pixKey={form.field('pixKey')}
        chosen={chosen}
        onChosen={chooseKey}
        typedHint="A mesma chave em todos os QR codes do lote."
      />
      <TextField label="Nome de quem recebe" {...form.field('merchantName')} />
      <TextField label="Cidade" {...form.field('merchantCity')} />
      {renderPreview ? renderPreview(name, city) : null}
      <fieldset>
        <legend>Numerados</legend>
        <TextField
          label="Prefixo"
          autoCapitalize="characters"
          {...form.field('prefix')}
          hint="Como MESA: cria MESA01, MESA02…"
        />
        <TextField label="Quantidade" inputMode="numeric" {...form.field('count')} hint={`De 1 a ${MAX_BATCH}.`} />
      </fieldset>
      <div className={['field', linesError ? 'invalid' : null].filter(Boolean).join(' ')}>
        <label htmlFor="lote-linhas">Ou cole uma lista</label>
        <textarea
          id="lote-linhas"
          rows={6}
          aria-invalid={linesError ? true : undefined}
          aria-describedby="lote-linhas-dica"
          {...form.field('lines')}
        />
        <div id="lote-linhas-dica" className="hint">
          Uma linha por QR code. Para um preço, use ponto e vírgula: Coxinha;6,50
        </div>
        {linesError ? <p className="field-error">{linesError}</p> : null}
      </div>
      <TextField
        label="Valor (opcional)"
        inputMode="decimal"
        autoComplete="off"
        {...form.field('amount')}
        hint="Para as linhas sem preço. Em branco, quem paga digita o valor."
      />
      <button type="submit" className="button" disabled={isLoading}>
        {isLoading ? 'Criando…' : 'Criar QR codes'}
      </button>
      {created ? (
        <FormOutcome key={created.batchId}>
          <p>{created.qrcodes.length} QR codes criados.</p>
          <p>
            <a className="button" href={paths.server.batchSigns(created.batchId)} download>
              Baixar todas as placas (PDF A4)
            </a>
          </p>
          <p className="hint">
            Uma página por QR code, cada uma com o seu. Também em{' '}
            <a href={paths.server.batchSigns(created.batchId, 'a6')} download>
              A6
            </a>{' '}
            ou em{' '}
            <a href={paths.server.batchSigns(created.batchId, 'adesivos')} download>
              folhas de adesivos
            </a>{' '}
            (A4 com marcas de corte).
          </p>
          <ul className="batch-result">
            {created.qrcodes.map((qrcode) => (
              <li key={qrcode.id}>
                <strong>{qrcode.description ?? qrcode.txid}</strong>
                {qrcode.amountCentavos === null ? null : ` · ${formatCentavos(qrcode.amountCentavos)}`}{' '}
                <a href={paths.server.payment(qrcode.id)}>
                  Página de pagamento<span className="visually-hidden"> de {qrcode.description}</span>
                </a>{' '}
                <a href={`/placas/${encodeURIComponent(qrcode.id)}.png?modelo=codigo&dpi=254`} download>
                  PNG<span className="visually-hidden"> de {qrcode.description}</span>
                </a>{' '}
                <a href={`/placas/${encodeURIComponent(qrcode.id)}.pdf`} download>
                  PDF<span className="visually-hidden"> de {qrcode.description}</span>
                </a>
              </li>
            ))}
          </ul>
          <p>
            <a href={paths.panel.qrCodes}>Ver todos os QR codes</a>
          </p>
        </FormOutcome>
      ) : null}
    </form>
  );
}
