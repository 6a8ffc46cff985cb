import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router';

import { paths } from '@/config/paths';

import { MainNav } from './main-nav';

export interface DashboardLayoutProps {
  /** The header's account area: who is signed in, the workspace switcher, "Sair". */
  account: ReactNode;
  /** Whether the menu offers "Contas extras" (not to an operator of the account in use). */
  showExtraAccounts?: boolean;
}

/**
 * The dashboard frame: skip link, header with the account, navigation, and the screen. After each
 * navigation focus moves to the new screen's heading, so screen readers announce where they are.
 */
export function DashboardLayout({ account, showExtraAccounts = true }: DashboardLayoutProps) {
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuPath, setMenuPath] = useState(pathname);
  const mainRef = useRef<HTMLElement>(null);
  const firstPath = useRef(pathname);

  // The phone menu closes once a screen is chosen.
  if (menuPath !== pathname) {
    setMenuPath(pathname);
    setMenuOpen(false);
  }

  useEffect(() => {
    if (firstPath.current === pathname) return;
    firstPath.current = '';
    const main = mainRef.current;
    (main?.querySelector<HTMLElement>('h1') ?? main)?.focus();
  }, [pathname]);

  return (
    <>
      <a className="skip" href="#conteudo">
        Pular para o conteúdo
      </a>
      <header className="site-header">
        <div className="wrap bar">
          <a className="brand" href={paths.server.home} aria-label="Balcão, página inicial">
            <span aria-hidden="true" className="brand-mark">
              ◆
            </span>{' '}
            Balcão
          </a>
          <button
            type="button"
            className="button secondary small menu-toggle"
            aria-expanded={menuOpen}
            aria-controls="menu-painel"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            Menu
          </button>
          <div className="account">{account}</div>
        </div>
      </header>
      <div className="wrap panel">
        <nav id="menu-painel" aria-label="Painel" className={menuOpen ? 'panel-nav open' : 'panel-nav'}>
          <MainNav showExtraAccounts={showExtraAccounts} />
        </nav>
        <main id="conteudo" ref={mainRef} tabIndex={-1} className="panel-main">
          <Outlet />
        </main>
      </div>
    </>
  );
}
