import type { ReactNode } from 'react';

import { PageTitle } from './page-title';

/** A dashboard screen that does not exist yet, said plainly (no sample data). */
export function UnderConstruction({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section aria-labelledby="titulo-tela">
      <PageTitle>{title}</PageTitle>
      <h1 id="titulo-tela" tabIndex={-1}>
        {title}
      </h1>
      <p className="notice">Esta tela ainda está em construção.</p>
      {children}
    </section>
  );
}
