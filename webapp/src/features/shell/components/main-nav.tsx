import { NavLink } from 'react-router';

import { paths } from '@/config/paths';

const SCREENS = [
  { to: paths.panel.home, label: 'Início', end: true },
  { to: paths.panel.keys, label: 'Chaves Pix' },
  { to: paths.panel.qrCodes, label: 'QR codes' },
  { to: paths.panel.signs, label: 'Placas' },
  { to: paths.panel.paymentLinks, label: 'Links de pagamento' },
  { to: paths.panel.transactions, label: 'Transações' },
  { to: paths.panel.extraAccounts, label: 'Contas extras' },
  { to: paths.panel.subscription, label: 'Plano' },
  { to: paths.panel.settings, label: 'Configurações' },
  { to: paths.panel.apiKeys, label: 'Chaves de API' },
  { to: paths.panel.webhooks, label: 'Webhooks' },
  { to: paths.panel.faq, label: 'Dúvidas' },
] as const;

export interface MainNavProps {
  /** False for a role that never manages the extra accounts, the payment links, the API keys or the webhooks of the account in use (an operator). */
  showExtraAccounts?: boolean;
}

/** Every dashboard screen; NavLink marks the current one with aria-current="page". */
export function MainNav({ showExtraAccounts = true }: MainNavProps) {
  const screens = SCREENS.filter(
    (screen) =>
      showExtraAccounts ||
      (screen.to !== paths.panel.extraAccounts &&
        screen.to !== paths.panel.paymentLinks &&
        screen.to !== paths.panel.apiKeys &&
        screen.to !== paths.panel.webhooks),
  );
  return (
    <ul className="main-nav">
      {screens.map((screen) => (
        <li key={screen.to}>
          <NavLink to={screen.to} end={'end' in screen}>
            {screen.label}
          </NavLink>
        </li>
      ))}
      <li>
        {/* Inside the dashboard a sign is made in the account in use (its code, its txid, its
            payments); the result prints and downloads it. The public maker would make it anonymous. */}
        <NavLink to={paths.panel.createQrCode}>Criar placa Pix</NavLink>
      </li>
    </ul>
  );
}
