import { Navigate, type RouteObject } from 'react-router';

import { PageStatus } from '@/components/page-status';
import { paths } from '@/config/paths';

import { RootError } from './routes/root-error';
import { RootLayout } from './routes/root-layout';

/**
 * Every client route. Screens are loaded on demand (`lazy`), so the first visit on a slow network
 * downloads only the page it opens; the loading bar runs while a screen's code arrives.
 */
export function createAppRoutes(): RouteObject[] {
  return [
    {
      element: <RootLayout />,
      errorElement: <RootError />,
      hydrateFallbackElement: <PageStatus>Carregando…</PageStatus>,
      children: [
        { path: paths.auth.logIn.path, lazy: () => import('./routes/auth/log-in') },
        { path: paths.auth.signUp.path, lazy: () => import('./routes/auth/sign-up') },
        { path: paths.auth.recover.path, lazy: () => import('./routes/auth/recover-password') },
        { path: paths.auth.reset.path, lazy: () => import('./routes/auth/reset-password') },
        { path: paths.auth.verifyEmail.path, lazy: () => import('./routes/auth/verify-email') },
        // Outside the signed-in frame below: it is shown once the session is over.
        { path: paths.panel.accountDeleted, lazy: () => import('./routes/account-deleted') },
        // The old dashboard address; the server answers it with a 301 too.
        { path: paths.panel.oldIndex, element: <Navigate to={paths.panel.home} replace /> },
        {
          path: paths.panel.home,
          lazy: () => import('./routes/panel/panel-layout'),
          children: [
            { index: true, lazy: () => import('./routes/panel/home') },
            { path: 'boas-vindas', lazy: () => import('./routes/panel/welcome') },
            { path: 'chaves', lazy: () => import('./routes/panel/keys') },
            // Issue 33: Balcão talks to the key's bank through its API Pix.
            { path: 'chaves/:keyId/banco', lazy: () => import('./routes/panel/bank-connection') },
            { path: 'qrcodes', lazy: () => import('./routes/panel/qrcodes') },
            // Issue 32: "Modo balcão", the counter's live view of one code.
            { path: 'qrcodes/:id/balcao', lazy: () => import('./routes/panel/counter') },
            { path: 'criar-qrcode', lazy: () => import('./routes/panel/create-qrcode') },
            { path: 'transacoes', lazy: () => import('./routes/panel/transactions') },
            // Issue 12: plans and billing. The old plan screen's address goes to the subscription (the server answers it with a 301 too).
            { path: 'plano', element: <Navigate to={paths.panel.subscription} replace /> },
            { path: 'premium', lazy: () => import('./routes/panel/premium') },
            { path: 'assinatura', lazy: () => import('./routes/panel/subscription') },
            { path: 'assinatura-realizada', lazy: () => import('./routes/panel/subscription-done') },
            { path: 'contas-extras', lazy: () => import('./routes/panel/extra-accounts') },
            { path: 'criar-conta-extra', lazy: () => import('./routes/panel/new-extra-account') },
            { path: 'convite', lazy: () => import('./routes/panel/invitation') },
            { path: 'configuracoes', lazy: () => import('./routes/panel/settings') },
            { path: 'duvidas', lazy: () => import('./routes/panel/faq') },
            // Issue 10: payment links and "Salvar na minha conta" for a visitor's sign.
            { path: 'links-de-pagamento', lazy: () => import('./routes/panel/payment-links') },
            // Issue 36: keys for the developer API.
            { path: 'chaves-de-api', lazy: () => import('./routes/panel/api-keys') },
            { path: 'webhooks', lazy: () => import('./routes/panel/webhooks') },
            { path: 'salvar-placa', lazy: () => import('./routes/panel/claim-sign') },
            // Issue 11: the signs the account keeps.
            { path: 'placas', lazy: () => import('./routes/panel/signs') },
            { path: '*', lazy: () => import('./routes/panel/panel-not-found') },
          ],
        },
        // Issue 12: the subscription's checkout, signed in, inside the dashboard frame.
        {
          path: paths.panel.checkout,
          lazy: () => import('./routes/panel/panel-layout'),
          children: [{ index: true, lazy: () => import('./routes/panel/checkout') }],
        },
        { path: '*', lazy: () => import('./routes/not-found-page') },
      ],
    },
  ];
}
