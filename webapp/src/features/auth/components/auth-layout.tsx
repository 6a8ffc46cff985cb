import type { ReactNode } from 'react';

import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';

/** The frame of the sign-in, sign-up and password pages: brand, one column, one heading. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
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
        </div>
      </header>
      <main id="conteudo" className="wrap narrow">
        <PageTitle>{title}</PageTitle>
        <h1>{title}</h1>
        {children}
      </main>
    </>
  );
}
