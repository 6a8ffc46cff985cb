/**
 * The "Internal Server Error" page, shown when a screen crashes or its code fails to download.
 * Plain links and a reload: the router itself may be what broke.
 */
export function InternalError() {
  return (
    <main id="conteudo" className="wrap">
      <title>Internal Server Error · Balcão</title>
      <section className="error-page" aria-labelledby="titulo-erro">
        <p className="status" aria-hidden="true">
          500
        </p>
        <h1 id="titulo-erro">Algo deu errado do nosso lado</h1>
        <p>Não conseguimos mostrar esta tela. Seus dados estão a salvo: tente de novo em instantes.</p>
        <p className="actions">
          <button type="button" className="button" onClick={() => window.location.reload()}>
            Tentar de novo
          </button>
          <a className="button secondary" href="/painel">
            Voltar ao painel
          </a>
        </p>
      </section>
    </main>
  );
}
