import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';

import { FormAlert } from '@/components/form-alert';
import { PageStatus } from '@/components/page-status';
import { PageTitle } from '@/components/page-title';
import { TextField } from '@/components/text-field';
import { WorkspaceLine } from '@/components/workspace-line';
import { useApiForm } from '@/hooks/use-api-form';
import { asApiError } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';
import type { CurrentWorkspace } from '@/types/workspace';
import { requiredText } from '@/utils/field-rules';

import {
  type Plan,
  type UpgradeRequest,
  useGetSubscriptionQuery,
  useListPlansQuery,
  useUpgradePlanMutation,
} from '../api/billing';
import { PlanCards, priceText } from './plan-cards';

type PaidPlan = UpgradeRequest['plan'];

const payerSchema = z.object({
  payerName: requiredText(),
  document: requiredText(),
});

/** Who pays, then off to the checkout with the new Pix charge. */
function UpgradeForm({ accountId, plan }: { accountId: string; plan: Plan }) {
  const navigate = useNavigate();
  const [upgrade, { isLoading }] = useUpgradePlanMutation();
  const form = useApiForm({
    schema: payerSchema,
    defaultValues: { payerName: '', document: '' },
    send: async (values) => {
      const answer = await upgrade({ accountId, plan: plan.id as PaidPlan, ...values }).unwrap();
      void navigate(answer.checkoutUrl);
      return answer;
    },
  });
  // Chosen under the cards: on a phone the form is below the fold, so it comes into view.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.scrollIntoView({ block: 'start' });
    heading.current?.focus();
  }, []);
  return (
    <form {...form.formProps} aria-labelledby="titulo-assinar">
      <h2 id="titulo-assinar" ref={heading} tabIndex={-1}>
        Assinar o {plan.name}: {priceText(plan)}
      </h2>
      <p className="hint">O pagamento é por Pix. Assim que ele é confirmado, o Premium vale na hora.</p>
      {form.failure ? <FormAlert takeFocus>{errorMessage(form.failure)}</FormAlert> : null}
      <TextField label="Nome de quem paga" autoComplete="name" {...form.field('payerName')} />
      <TextField
        label="CPF ou CNPJ de quem paga"
        inputMode="numeric"
        {...form.field('document')}
        hint="A cobrança sai no nome de quem paga, como pede o provedor de pagamentos."
      />
      <button type="submit" className="button" disabled={isLoading}>
        {isLoading ? 'Gerando o Pix…' : 'Gerar o Pix da assinatura'}
      </button>
    </form>
  );
}

/** /painel/premium: the plans side by side, and the upgrade. */
export function PremiumScreen({ workspace }: { workspace: CurrentWorkspace }) {
  const [searchParams] = useSearchParams();
  const plans = useListPlansQuery();
  const isOwner = workspace.role === 'owner';
  const subscription = useGetSubscriptionQuery(workspace.accountId, { skip: !isOwner });
  const wanted = searchParams.get('plano');
  const [chosen, setChosen] = useState<string | null>(wanted);
  const current = subscription.data?.plan.id;
  const chosenPlan = plans.data?.find((plan) => plan.id === chosen && plan.period !== 'free');
  return (
    <section aria-labelledby="titulo-tela">
      <PageTitle>Premium</PageTitle>
      <h1 id="titulo-tela" tabIndex={-1}>
        Planos Grátis e Premium
      </h1>
      <WorkspaceLine workspace={workspace} />
      {plans.data === undefined ? (
        plans.error ? (
          <FormAlert>{errorMessage(asApiError(plans.error))}</FormAlert>
        ) : (
          <PageStatus>Carregando…</PageStatus>
        )
      ) : (
        <PlanCards
          plans={plans.data}
          currentId={current}
          action={(plan) =>
            plan.period !== 'free' && isOwner && current === 'gratis' ? (
              <button
                type="button"
                className="button"
                aria-pressed={chosen === plan.id}
                onClick={() => setChosen(plan.id)}
              >
                Assinar o {plan.name}
              </button>
            ) : null
          }
        />
      )}
      {!isOwner ? <p className="notice">Só o proprietário da conta assina o Premium.</p> : null}
      {isOwner && current !== undefined && current !== 'gratis' ? (
        <p className="notice">Esta conta já é Premium. Veja a assinatura em Plano e assinatura.</p>
      ) : null}
      {isOwner && current === 'gratis' && chosenPlan ? (
        <UpgradeForm key={chosenPlan.id} accountId={workspace.accountId} plan={chosenPlan} />
      ) : null}
      <p className="hint">
        Quando o Premium termina sem renovação, a conta volta ao Grátis: nada do que você criou é apagado, e os limites
        do Grátis valem só para o que for criado depois.
      </p>
    </section>
  );
}
