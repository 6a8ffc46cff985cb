import { AuthLayout } from '@/features/auth/components/auth-layout';
import { RecoverPasswordForm } from '@/features/auth/components/recover-password-form';

/** /recuperar-senha */
export function Component() {
  return (
    <AuthLayout title="Recuperar senha">
      <RecoverPasswordForm />
    </AuthLayout>
  );
}
