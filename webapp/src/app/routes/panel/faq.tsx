import { PageStatus } from '@/components/page-status';
import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { useGetFaqQuery } from '@/features/faq/api/get-faq';
import { asApiError } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';

/**
 * /painel/duvidas inside the dashboard. Loaded from the address bar it is the server's public page
 * (findable by search engines); reached from the dashboard's menu it stays in the dashboard's frame,
 * with the menu and the signed-in person, reading the same FAQ from `GET /api/faq`.
 */
export function Component() {
  const { data, error, isLoading } = useGetFaqQuery();
  return (
    <section aria-labelledby="titulo-tela">
      <PageTitle>Dúvidas</PageTitle>
      <h1 id="titulo-tela" tabIndex={-1}>
        Dúvidas
      </h1>
      {isLoading ? <PageStatus>Carregando as dúvidas…</PageStatus> : null}
      {error !== undefined ? (
        <div className="alert error" role="alert">
          Não foi possível carregar as dúvidas. {errorMessage(asApiError(error))}{' '}
          <a href={paths.server.faq}>Abrir a página de dúvidas</a>
        </div>
      ) : null}
      {/* Server-rendered HTML from our own Markdown file; the server escapes raw HTML in it. */}
      {data ? <div className="faq-body" dangerouslySetInnerHTML={{ __html: data.bodyHtml }} /> : null}
    </section>
  );
}
