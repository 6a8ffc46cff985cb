import { SettingsScreen } from '@/features/settings/components/settings-screen';

/** /painel/configuracoes */
export function Component() {
  return <SettingsScreen />;
}
