import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';

/**
 * /painel/duvidas is a server-rendered page; the menu links to it with a full page load. This
 * screen only shows if the app itself navigates here.
 */
export function Component() {
  return (
    <section aria-labelledby="titulo-tela">
      <PageTitle>Dúvidas</PageTitle>
      <h1 id="titulo-tela" tabIndex={-1}>
        Dúvidas
      </h1>
      <p>
        As respostas às dúvidas mais comuns ficam numa página própria: <a href={paths.server.faq}>abrir as dúvidas</a>.
      </p>
    </section>
  );
}
