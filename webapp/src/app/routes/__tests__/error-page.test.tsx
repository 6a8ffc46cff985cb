import { render, screen } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { AppProvider } from '@/app/provider';
import { createAppRoutes } from '@/app/router';
import { makeStore } from '@/app/store';

function Crash(): never {
  throw new Error('tela quebrada');
}

afterEach(() => vi.restoreAllMocks());

describe('the error page', () => {
  it('shows "Internal Server Error" with a pt-BR explanation when a screen crashes', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const routes = createAppRoutes();
    routes[0]?.children?.unshift({ path: '/quebrada', element: <Crash /> });
    render(
      <AppProvider store={makeStore()}>
        <RouterProvider router={createMemoryRouter(routes, { initialEntries: ['/quebrada'] })} />
      </AppProvider>,
    );

    expect(await screen.findByRole('heading', { name: 'Algo deu errado do nosso lado' })).toBeInTheDocument();
    expect(document.title).toBe('Internal Server Error · Balcão');
    expect(screen.getByText(/Seus dados estão a salvo/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Tentar de novo' })).toBeInTheDocument();
  });

  it('is also what the outer boundary shows when something outside the routes crashes', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <AppProvider store={makeStore()}>
        <Crash />
      </AppProvider>,
    );
    expect(screen.getByRole('heading', { name: 'Algo deu errado do nosso lado' })).toBeInTheDocument();
  });
});
