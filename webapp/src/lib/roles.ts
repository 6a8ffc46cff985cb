// What each role in someone else's account may do, in the words the screens use. The server decides
// (a role without the right gets 403); these labels only explain it.

/** A person's role in an account (`GET /api/workspaces`, members). The owner is never invited. */
export type Role = 'owner' | 'manager' | 'operator';

/** The roles an owner can invite someone as. */
export const INVITABLE_ROLES = ['manager', 'operator'] as const satisfies readonly Role[];

export type InvitableRole = (typeof INVITABLE_ROLES)[number];

export const ROLE_LABELS: Readonly<Record<Role, string>> = {
  owner: 'Titular',
  manager: 'Gerente',
  operator: 'Operador',
};

// Only what the dashboard does today: a right joins its role's sentence when its screen ships, never
// before (transactions joined with /painel/transacoes).
export const ROLE_DESCRIPTIONS: Readonly<Record<Role, string>> = {
  owner: 'tudo na conta, inclusive contas extras e configurações',
  manager: 'cadastra chaves Pix, cria QR codes e placas e vê todos os QR codes e pagamentos da conta',
  operator: 'vê as chaves Pix, cria QR codes e placas e vê os QR codes que criou e os pagamentos deles',
};

/** The pt-BR name of a role; one the app does not know yet is shown as the server spells it. */
export function roleLabel(role: string): string {
  return role in ROLE_LABELS ? ROLE_LABELS[role as Role] : role;
}

/** What the role may do, in pt-BR; null for a role the app does not know yet. */
export function roleDescription(role: string): string | null {
  return role in ROLE_DESCRIPTIONS ? ROLE_DESCRIPTIONS[role as Role] : null;
}
