import { useSearchParams } from 'react-router';

import { AuthLayout } from '@/features/auth/components/auth-layout';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';

/** /redefinir-senha?oobCode=… (the link in the recovery e-mail) */
export function Component() {
  const [searchParams] = useSearchParams();
  return (
    <AuthLayout title="Criar senha nova">
      <ResetPasswordForm oobCode={searchParams.get('oobCode')} />
    </AuthLayout>
  );
}
