import type { Role } from '@/lib/roles';

/** An account the signed-in person can act in, as `GET /api/workspaces` lists it. */
export interface Workspace {
  accountId: string;
  displayName: string;
  role: Role;
  /** The recipient name and city new QR codes start with in this account (its settings). */
  defaultMerchantName?: string | null;
  defaultMerchantCity?: string | null;
}

/** The account the dashboard acts on, as the screens that act on an account receive it. */
export interface CurrentWorkspace extends Workspace {
  /** The person's own account (the only one they own: owners are never invited). */
  isOwn: boolean;
  /** The person can act in more than one account (the switcher is showing). */
  hasOthers: boolean;
}
