import { act, fireEvent, screen } from '@testing-library/react';
import { HttpResponse, delay, http } from 'msw';
import { Link, Outlet } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { api } from '@/lib/api';
import { useFakeClock } from '@/testing/fake-clock';
import { apiError } from '@/testing/mocks/handlers/api-error';
import { server } from '@/testing/mocks/server';
import { type makeTestStore, renderRoutes, renderWithProviders } from '@/testing/test-utils';

import { LoadingBar } from './loading-bar';

// A request of the test's own, so the shell's test depends on no other feature.
const slowApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSlowReport: build.query<{ ok: boolean }, void>({ query: () => '/api/teste/relatorio' }),
  }),
});
const ANSWER = '/api/teste/relatorio';

const bar = () => screen.getByTestId('barra-de-carregamento');

/** Starts the request at the current fake time, letting React render and run its effects. */
async function startRequest(store: ReturnType<typeof makeTestStore>) {
  await act(async () => {
    void store.dispatch(slowApi.endpoints.getSlowReport.initiate());
    // Lets the request's pending action land without moving the clock.
    await vi.advanceTimersByTimeAsync(0);
  });
}

async function advance(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

beforeEach(useFakeClock);
afterEach(() => vi.useRealTimers());

describe('LoadingBar', () => {
  it('runs while the user waits for the API: shown after 200 ms, full when the answer arrives, gone 500 ms later', async () => {
    server.use(
      http.get(ANSWER, async () => {
        await delay(1000);
        return HttpResponse.json({ ok: true });
      }),
    );
    const { store } = renderWithProviders(<LoadingBar />, { fakeTimers: true });
    await startRequest(store);

    await advance(199);
    expect(bar()).toHaveAttribute('data-visible', 'false');
    await advance(1);
    expect(bar()).toHaveAttribute('data-visible', 'true');

    await advance(800);
    expect(bar()).toHaveStyle({ transform: 'scaleX(1)' });
    expect(bar()).not.toHaveClass('error');
    await advance(499);
    expect(bar()).toHaveAttribute('data-visible', 'true');
    await advance(1);
    expect(bar()).toHaveAttribute('data-visible', 'false');
  });

  it('never shows for an answer that takes less than 200 ms', async () => {
    server.use(
      http.get(ANSWER, async () => {
        await delay(150);
        return HttpResponse.json({ ok: true });
      }),
    );
    const { store } = renderWithProviders(<LoadingBar />, { fakeTimers: true });
    await startRequest(store);
    for (let elapsed = 0; elapsed < 2000; elapsed += 50) {
      await advance(50);
      expect(bar()).toHaveAttribute('data-visible', 'false');
    }
  });

  it('completes in the error colour and hides when the request fails', async () => {
    server.use(
      http.get(ANSWER, async () => {
        await delay(600);
        return apiError(503, 'unavailable', 'Fora do ar.');
      }),
    );
    const { store } = renderWithProviders(<LoadingBar />, { fakeTimers: true });
    await startRequest(store);
    await advance(600);
    expect(bar()).toHaveAttribute('data-visible', 'true');
    expect(bar()).toHaveClass('error');
    expect(bar()).toHaveStyle({ transform: 'scaleX(1)' });
    await advance(500);
    expect(bar()).toHaveAttribute('data-visible', 'false');
  });

  it('runs while the router downloads the next screen', async () => {
    let deliver: () => void = () => undefined;
    const downloaded = new Promise<void>((resolve) => {
      deliver = resolve;
    });
    renderRoutes(
      [
        {
          element: (
            <>
              <LoadingBar />
              <Outlet />
            </>
          ),
          children: [
            { index: true, element: <Link to="/lenta">Abrir</Link> },
            { path: '/lenta', lazy: () => downloaded.then(() => ({ Component: () => <h1>Tela lenta</h1> })) },
          ],
        },
      ],
      { fakeTimers: true },
    );
    await advance(0);
    fireEvent.click(screen.getByRole('link', { name: 'Abrir' }));
    await advance(199);
    expect(bar()).toHaveAttribute('data-visible', 'false');
    await advance(1);
    expect(bar()).toHaveAttribute('data-visible', 'true');

    await act(async () => {
      deliver();
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByRole('heading', { name: 'Tela lenta' })).toBeInTheDocument();
    expect(bar()).toHaveStyle({ transform: 'scaleX(1)' });
    await advance(500);
    expect(bar()).toHaveAttribute('data-visible', 'false');
  });
});
