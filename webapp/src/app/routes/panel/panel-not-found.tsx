import { NotFound } from '@/components/not-found';
import { paths } from '@/config/paths';

/** An unknown /painel/* path, inside the dashboard layout. */
export function Component() {
  return <NotFound homeHref={paths.panel.home} homeLabel="Voltar para o início do painel" />;
}
