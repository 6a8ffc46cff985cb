import { UnderConstruction } from '@/components/under-construction';

/** /painel/configuracoes: not built yet, and it says so. */
export function SettingsScreen() {
  return <UnderConstruction title="Configurações" />;
}
