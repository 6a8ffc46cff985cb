import { api } from '@/lib/api';

/** A bank Balcão can connect to, as `GET …/bank-connections` lists it. */
export interface BankProfile {
  /** The profile's slug (`efi`, `banco-do-brasil`, …, `outro`). */
  id: string;
  name: string;
  /** What to ask the bank for: the certificate's format and the permissions (scopes). */
  instructions: string;
  /** The bank needs one more value (an application key, an account number). */
  extra: { label: string; hint: string } | null;
  /** "Outro PSP": the owner types the API's and the token's addresses. */
  typedAddresses: boolean;
  /** Whether the bank issues a client secret (the form asks for it only then). */
  usesClientSecret: boolean;
  /** The environments the bank offers through its API Pix. */
  environments: BankEnvironment[];
}

export type BankEnvironment = 'producao' | 'homologacao';

/** A connected key, as the API shows it: never a credential, only what is safe to read back. */
export interface BankConnection {
  keyId: string;
  pixKey: string;
  bank: string;
  bankName: string;
  environment: BankEnvironment;
  /** When the certificate stops being valid (RFC 3339). */
  certificateNotAfter: string;
  connectedAt: string;
  lastTest: { ok: boolean; message: string | null; at: string } | null;
  webhook: { state: 'registered' | 'failed' | 'not-registered'; message: string | null; at: string | null };
  /** The catch-up through the bank's `GET /pix` (Pix whose webhook never arrived); null before its first run. */
  catchUp: {
    checkedUntil: string | null;
    lastSuccessAt: string | null;
    /** The first failure since the last success: "sem contato com o banco desde …". */
    failingSince: string | null;
    lastProblem: string | null;
  } | null;
}

export interface BankConnections {
  banks: BankProfile[];
  connections: BankConnection[];
}

/** One key's page: the key, the banks offered and its connection (null while not connected). */
export interface KeyBankConnection {
  keyId: string;
  pixKey: string;
  banks: BankProfile[];
  connection: BankConnection | null;
}

/** A file as the connect call takes it. */
export interface UploadedFile {
  name: string;
  /** The file's bytes, base64. */
  base64: string;
}

/** What "Conectar e testar" sends. */
export interface ConnectBankRequest {
  bank: string;
  environment: BankEnvironment;
  clientId: string;
  clientSecret: string;
  /** `.p12`/`.pfx`, or the PEM certificate (which may hold the key too). */
  certificate: UploadedFile;
  /** The PEM private key, when the bank handed it out apart from the certificate. */
  certificateKey: UploadedFile | null;
  certificatePassword: string | null;
  extra: string | null;
  apiBaseUrl: string | null;
  tokenUrl: string | null;
}

/** What "Criar cobrança" sends: an immediate charge (`cob`) the key's bank makes. */
export interface NewCharge {
  keyId: string;
  /** pt-BR, `"45,90"`. */
  amount: string;
  /** What the payer reads in their bank app (up to 140 characters). */
  description: string | null;
  expiresInMinutes: number;
  /** The city written in the code. */
  merchantCity: string;
}

/** A due-date charge (`cobv`): an invoice with a debtor, payable up to some days after its due date. */
export interface NewDueDateCharge {
  keyId: string;
  amount: string;
  description: string | null;
  merchantCity: string;
  /** `YYYY-MM-DD`. */
  dueDate: string;
  daysAfterDue: number;
  debtor: { name: string; document: string };
  /** Each in the API Pix's modality (its domain table) with its value in pt-BR (`"2,00"`: reais or %); null when none. */
  fine: ChargeAdjustment | null;
  interest: ChargeAdjustment | null;
  /** Modality 1 (reais) or 2 (%), up to a date. */
  discount: { modality: number; dates: { until: string; value: string }[] } | null;
  abatement: ChargeAdjustment | null;
}

export interface ChargeAdjustment {
  modality: number;
  value: string;
}

/** The dynamic code of a charge, as `POST …/qrcodes/cobrancas` answers it (a QR code of the account). */
export interface ChargeCode {
  id: string;
  amountCentavos: number;
  description: string | null;
  /** The BR Code ("Pix Copia e Cola"). */
  payload: string;
  /** The payer page, to share or open at the counter. */
  paymentUrl: string;
  /** Until when it may be paid (RFC 3339). */
  chargeExpiresAt: string;
}

const connectionsUrl = (accountId: string) => `/api/accounts/${encodeURIComponent(accountId)}/bank-connections`;
const connectionUrl = (accountId: string, keyId: string) => `${connectionsUrl(accountId)}/${encodeURIComponent(keyId)}`;
const tags = (accountId: string) => [{ type: 'BankConnections' as const, id: accountId }];

export const bankConnectionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `GET …/bank-connections`: the banks offered and the account's connected keys. */
    bankConnections: build.query<BankConnections, string>({
      query: (accountId) => connectionsUrl(accountId),
      extraOptions: { authenticated: true },
      providesTags: (_result, _error, accountId) => tags(accountId),
    }),
    /** `GET …/bank-connections/{keyId}`: 404 for a key that is not the account's. */
    keyBankConnection: build.query<KeyBankConnection, { accountId: string; keyId: string }>({
      query: ({ accountId, keyId }) => connectionUrl(accountId, keyId),
      extraOptions: { authenticated: true },
      providesTags: (_result, _error, { accountId }) => tags(accountId),
    }),
    /** `PUT …/bank-connections/{keyId}`: tests the credentials at the bank, then connects and registers the webhook. */
    connectBank: build.mutation<BankConnection, { accountId: string; keyId: string; request: ConnectBankRequest }>({
      query: ({ accountId, keyId, request }) => ({
        url: connectionUrl(accountId, keyId),
        method: 'PUT',
        body: request,
      }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => tags(accountId),
    }),
    /** `POST …/bank-connections/{keyId}/test`: asks the bank again; the answer is noted either way. */
    testBankConnection: build.mutation<BankConnection, { accountId: string; keyId: string }>({
      query: ({ accountId, keyId }) => ({ url: `${connectionUrl(accountId, keyId)}/test`, method: 'POST', body: {} }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => tags(accountId),
    }),
    /** `POST …/bank-connections/{keyId}/webhook`: registers Balcão's address at the bank again. */
    registerBankWebhook: build.mutation<BankConnection, { accountId: string; keyId: string }>({
      query: ({ accountId, keyId }) => ({
        url: `${connectionUrl(accountId, keyId)}/webhook`,
        method: 'POST',
        body: {},
      }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => tags(accountId),
    }),
    /** `POST …/qrcodes/cobrancas`: the bank makes the charge; its dynamic code joins the account's QR codes. */
    createCharge: build.mutation<
      ChargeCode,
      { accountId: string; charge: NewCharge | NewDueDateCharge; idempotencyKey: string }
    >({
      query: ({ accountId, charge, idempotencyKey }) => ({
        url: `/api/accounts/${encodeURIComponent(accountId)}/qrcodes/cobrancas`,
        method: 'POST',
        body: charge,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => [{ type: 'QrCodes', id: accountId }],
    }),
    /** `DELETE …/bank-connections/{keyId}`: 204; the credentials are deleted. */
    disconnectBank: build.mutation<null, { accountId: string; keyId: string }>({
      query: ({ accountId, keyId }) => ({ url: connectionUrl(accountId, keyId), method: 'DELETE' }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => tags(accountId),
    }),
  }),
});

export const {
  useBankConnectionsQuery,
  useKeyBankConnectionQuery,
  useConnectBankMutation,
  useTestBankConnectionMutation,
  useRegisterBankWebhookMutation,
  useDisconnectBankMutation,
  useCreateChargeMutation,
} = bankConnectionsApi;
