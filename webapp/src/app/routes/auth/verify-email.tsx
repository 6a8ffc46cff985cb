import { useSearchParams } from 'react-router';

import { AuthLayout } from '@/features/auth/components/auth-layout';
import { VerifyEmailStatus } from '@/features/auth/components/verify-email-status';

/** /verificar-email?oobCode=… (the link in the confirmation e-mail) */
export function Component() {
  const [searchParams] = useSearchParams();
  return (
    <AuthLayout title="Confirmar e-mail">
      <VerifyEmailStatus oobCode={searchParams.get('oobCode')} />
    </AuthLayout>
  );
}
