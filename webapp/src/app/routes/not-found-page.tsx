import { NotFound } from '@/components/not-found';
import { paths } from '@/config/paths';

/** A path outside the dashboard that the app does not know. */
export function Component() {
  return (
    <main id="conteudo" className="wrap">
      <NotFound homeHref={paths.panel.home} homeLabel="Ir para o painel" />
    </main>
  );
}
