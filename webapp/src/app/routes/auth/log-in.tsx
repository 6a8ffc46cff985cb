import { AuthLayout } from '@/features/auth/components/auth-layout';
import { LogInForm } from '@/features/auth/components/log-in-form';
import { RedirectIfSignedIn } from '@/features/session/components/redirect-if-signed-in';
import { SignOutNotice } from '@/features/session/components/sign-out-notice';

/** /entrar */
export function Component() {
  return (
    <AuthLayout title="Entrar">
      <RedirectIfSignedIn>
        <SignOutNotice />
        <LogInForm />
      </RedirectIfSignedIn>
    </AuthLayout>
  );
}
