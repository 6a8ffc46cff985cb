import { Link } from 'react-router';

import { PageTitle } from './page-title';

/** The 404 body; the dashboard shows it inside its layout, other paths on a bare page. */
export function NotFound({ homeHref, homeLabel }: { homeHref: string; homeLabel: string }) {
  return (
    <section className="error-page" aria-labelledby="titulo-erro">
      <PageTitle>Página não encontrada</PageTitle>
      <p className="status" aria-hidden="true">
        404
      </p>
      <h1 id="titulo-erro" tabIndex={-1}>
        Página não encontrada
      </h1>
      <p>Este endereço não existe ou mudou de lugar. Confira o link ou use o menu.</p>
      <p>
        <Link className="button" to={homeHref}>
          {homeLabel}
        </Link>
      </p>
    </section>
  );
}
