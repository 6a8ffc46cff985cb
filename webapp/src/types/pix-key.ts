/**
 * A registered Pix key as a creation form offers it (`GET /api/accounts/{id}/keys`). The keys
 * feature owns the full shape; forms of other features receive these from the app.
 */
export interface KeyChoice {
  id: string;
  kind: 'cpf' | 'cnpj' | 'email' | 'phone' | 'evp';
  /** The key in DICT form, as written in codes. */
  pixKey: string | null;
  label: string | null;
  /** The holder's name as the bank shows it to the payer. */
  holderName: string | null;
  isDefault: boolean;
}
