import { useSearchParams } from 'react-router';

import { paths } from '@/config/paths';
import { InvitationAcceptance } from '@/features/workspaces/components/invitation-acceptance';

/** /painel/convite?codigo=… (the link in the invitation e-mail; signed-out visitors sign in first). */
export function Component() {
  const [searchParams] = useSearchParams();
  return <InvitationAcceptance code={searchParams.get(paths.panel.invitationCodeParam)} />;
}
