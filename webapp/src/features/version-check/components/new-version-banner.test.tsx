import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { HOUR, MINUTE, T0, useFakeClock } from '@/testing/fake-clock';
import { db } from '@/testing/mocks/db';
import { callTimes } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/test-utils';

import { NewVersionBanner } from './new-version-banner';

const CHECK = 'GET /builds/latest.json';
const NOTICE = 'Uma nova versão do Balcão está disponível.';

async function advance(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

beforeEach(useFakeClock);
afterEach(() => vi.useRealTimers());

describe('NewVersionBanner', () => {
  it('asks the server for its latest build every hour', async () => {
    renderWithProviders(<NewVersionBanner />, { fakeTimers: true });
    await advance(HOUR - 1);
    expect(callTimes(CHECK)).toEqual([]);
    await advance(1);
    await advance(HOUR);
    expect(callTimes(CHECK)).toEqual([T0 + HOUR, T0 + 2 * HOUR]);
  });

  it('stays quiet while the server has the build this tab runs', async () => {
    renderWithProviders(<NewVersionBanner />, { fakeTimers: true });
    await advance(HOUR);
    expect(callTimes(CHECK)).toHaveLength(1);
    expect(screen.queryByText(NOTICE)).not.toBeInTheDocument();
  });

  it('offers "Recarregar" without blocking the page when a new build is out', async () => {
    db.latestBuildId = 'build-mais-nova';
    renderWithProviders(<NewVersionBanner />, { fakeTimers: true });
    await advance(HOUR);
    expect(screen.getByRole('status')).toHaveTextContent(NOTICE);
    expect(screen.getByRole('button', { name: 'Recarregar' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Agora não' }));
    expect(screen.queryByText(NOTICE)).not.toBeInTheDocument();
  });

  it('checks on focus only when the last check is at least an hour old', async () => {
    renderWithProviders(<NewVersionBanner />, { fakeTimers: true });
    await advance(30 * MINUTE);
    fireEvent.focus(window);
    await advance(0);
    expect(callTimes(CHECK)).toEqual([]);

    // The tab slept in the background: the clock moved, the hourly timer did not fire.
    vi.setSystemTime(T0 + 3 * HOUR);
    fireEvent.focus(window);
    await advance(0);
    expect(callTimes(CHECK)).toEqual([T0 + 3 * HOUR]);

    fireEvent.focus(window);
    await advance(59 * MINUTE);
    expect(callTimes(CHECK)).toHaveLength(1);
    await advance(MINUTE);
    expect(callTimes(CHECK)).toEqual([T0 + 3 * HOUR, T0 + 4 * HOUR]);
  });
});
