import { ChangePasswordForm } from '@/features/auth/components/change-password-form';
import { SessionsList } from '@/features/session/components/sessions-list';
import { SettingsScreen } from '@/features/settings/components/settings-screen';

/** /painel/configuracoes: settings' own sections, plus the password (auth) and the devices (session). */
export function Component() {
  return <SettingsScreen passwordSection={<ChangePasswordForm />} sessionsSection={<SessionsList />} />;
}
