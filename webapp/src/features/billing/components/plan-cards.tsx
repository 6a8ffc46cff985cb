import type { ReactNode } from 'react';

import { formatCentavos } from '@/utils/money';

import type { Plan, PlanLimits } from '../api/billing';

/** A plan's price as people read it: "Grátis", "R$ 19,90 por mês", "R$ 199,00 por ano". */
export function priceText(plan: Plan): string {
  if (plan.period === 'free') return 'Grátis';
  return `${formatCentavos(plan.priceCentavos)} por ${plan.period === 'month' ? 'mês' : 'ano'}`;
}

/** Each limit of a plan, one sentence each, in the order the README lists them. */
export function limitLines(limits: PlanLimits): string[] {
  return [
    `Até ${limits.pixKeys} chaves Pix cadastradas`,
    `Até ${limits.qrcodesPerMonth.toLocaleString('pt-BR')} QR codes criados por mês`,
    `Até ${limits.extraAccounts} pessoas na equipe além de você`,
    limits.logoOnSigns ? 'Logotipo da loja nas placas' : 'Placas sem logotipo',
    // Not a limit: every plan exports its own payments.
    'Exportação dos pagamentos em CSV',
    `${limits.apiPixEndpoints} ${limits.apiPixEndpoints === 1 ? 'endereço' : 'endereços'} de webhook API Pix`,
    limits.historyDays === null
      ? 'Histórico completo de pagamentos'
      : `Pagamentos dos últimos ${limits.historyDays} dias na tela e no CSV (os anteriores ficam guardados)`,
  ];
}

export interface PlanCardsProps {
  plans: Plan[];
  /** The plan in force, marked "Seu plano". */
  currentId?: string;
  /** What goes under a plan's list (the "Assinar" button). */
  action?: (plan: Plan) => ReactNode;
}

/** The plans side by side (stacked on a phone). */
export function PlanCards({ plans, currentId, action }: PlanCardsProps) {
  return (
    <ul className="cards plans">
      {plans.map((plan) => (
        <li key={plan.id} className="card" aria-labelledby={`plano-${plan.id}`}>
          <h2 id={`plano-${plan.id}`}>{plan.name}</h2>
          <p className="price">{priceText(plan)}</p>
          {plan.id === currentId ? <p className="badge">Seu plano</p> : null}
          <ul className="checklist">
            {limitLines(plan.limits).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          {action?.(plan)}
        </li>
      ))}
    </ul>
  );
}
