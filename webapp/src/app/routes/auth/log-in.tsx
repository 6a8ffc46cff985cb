import { AuthLayout } from '@/features/auth/components/auth-layout';
import { LogInForm } from '@/features/auth/components/log-in-form';
import { RedirectIfSignedIn } from '@/features/session/components/redirect-if-signed-in';
import { SignOutNotice } from '@/features/session/components/sign-out-notice';
import { InvitationNotice } from '@/features/workspaces/components/invitation-notice';

/** /entrar */
export function Component() {
  return (
    <AuthLayout title="Entrar">
      <RedirectIfSignedIn>
        <SignOutNotice />
        <InvitationNotice page="log-in" />
        <LogInForm />
      </RedirectIfSignedIn>
    </AuthLayout>
  );
}
