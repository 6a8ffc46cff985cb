// Every path the app links to, in one place. Server-rendered pages are plain links (full page load).

const CONTINUE_PARAM = 'continuar';

export const paths = {
  continueParam: CONTINUE_PARAM,
  server: {
    home: '/',
    signMaker: '/criar-placa-pix',
    faq: '/painel/duvidas',
    terms: '/termos-de-uso',
    privacy: '/privacidade',
    /** The payer page of a QR code. */
    payment: (qrCodeId: string): string => `/pagamento/${encodeURIComponent(qrCodeId)}`,
    /** The printable sign (placa) of a QR code. */
    paymentSign: (qrCodeId: string): string => `/pagamento/${encodeURIComponent(qrCodeId)}/placa`,
    /** Every sign of a batch in one PDF, one page per code (`size`: the paper's slug, `a4` when absent). */
    batchSigns: (batchId: string, size?: string): string =>
      `/placas/lote/${encodeURIComponent(batchId)}.pdf${size ? `?tamanho=${encodeURIComponent(size)}` : ''}`,
    /** A visitor's sign page, opened with its management token. */
    signCreated: (qrCodeId: string, token: string): string =>
      `/placa-pix-criada/${encodeURIComponent(qrCodeId)}?chave=${encodeURIComponent(token)}`,
  },
  auth: {
    logIn: {
      path: '/entrar',
      getHref: (continueTo?: string | null): string =>
        continueTo ? `/entrar?${new URLSearchParams({ [CONTINUE_PARAM]: continueTo }).toString()}` : '/entrar',
    },
    signUp: {
      path: '/criar-conta',
      getHref: (continueTo?: string | null): string =>
        continueTo
          ? `/criar-conta?${new URLSearchParams({ [CONTINUE_PARAM]: continueTo }).toString()}`
          : '/criar-conta',
    },
    recover: { path: '/recuperar-senha' },
    reset: { path: '/redefinir-senha' },
    verifyEmail: { path: '/verificar-email' },
  },
  panel: {
    home: '/painel',
    welcome: '/painel/boas-vindas',
    keys: '/painel/chaves',
    qrCodes: '/painel/qrcodes',
    /** "Modo balcão": the counter's live view of what arrives at one code. */
    counter: (qrCodeId: string): string => `/painel/qrcodes/${encodeURIComponent(qrCodeId)}/balcao`,
    createQrCode: '/painel/criar-qrcode',
    transactions: '/painel/transacoes',
    settings: '/painel/configuracoes',
    plan: '/painel/plano',
    /** Issue 12: the plans side by side, the subscription, its confirmation, and the checkout (outside `/painel`). */
    premium: '/painel/premium',
    subscription: '/painel/assinatura',
    subscriptionDone: '/painel/assinatura-realizada',
    checkout: '/pagar_asaas',
    extraAccounts: '/painel/contas-extras',
    newExtraAccount: '/painel/criar-conta-extra',
    /** The invitation e-mail links here with `?codigo=<code>`. */
    invitation: '/painel/convite',
    invitationCodeParam: 'codigo',
    faq: '/painel/duvidas',
    /** The account's payment links (`/pagar`). */
    paymentLinks: '/painel/links-de-pagamento',
    /** The account's developer API keys (`/api/v1`). */
    apiKeys: '/painel/chaves-de-api',
    /** The addresses the account's payments are sent to. */
    webhooks: '/painel/webhooks',
    /** The signs the account keeps; `?qrcode=<id>` starts the creator with that code. */
    signs: '/painel/placas',
    /** "Salvar na minha conta" from `/placa-pix-criada/{id}`, with `?placa=<id>&chave=<token>`. */
    claimSign: '/painel/salvar-placa',
    /** Where account deletion ends (outside the signed-in frame: the session is over by then). */
    accountDeleted: '/painel/conta-excluida',
    oldIndex: '/painel/index_old',
  },
} as const;
