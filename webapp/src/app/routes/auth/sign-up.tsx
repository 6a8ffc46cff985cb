import { paths } from '@/config/paths';
import { AuthLayout } from '@/features/auth/components/auth-layout';
import { SignUpForm } from '@/features/auth/components/sign-up-form';
import { RedirectIfSignedIn } from '@/features/session/components/redirect-if-signed-in';
import { InvitationNotice } from '@/features/workspaces/components/invitation-notice';

/** /criar-conta: a new account goes on to the welcome guide. */
export function Component() {
  return (
    <AuthLayout title="Criar conta">
      <RedirectIfSignedIn afterSignIn={paths.panel.welcome}>
        <InvitationNotice page="sign-up" />
        <SignUpForm />
      </RedirectIfSignedIn>
    </AuthLayout>
  );
}
