import { render } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
// `RouterProvider` from `react-router`, not `react-router/dom`: under Vitest the two entry points can
// resolve to different builds (CommonJS and ES module) and then share no router context.
import { type RouteObject, RouterProvider, createMemoryRouter } from 'react-router';
import { vi } from 'vitest';

import { AppProvider } from '@/app/provider';
import { createAppRoutes } from '@/app/router';
import { type AppStore, type MakeStoreOptions, makeStore } from '@/app/store';

export interface RenderOptions extends MakeStoreOptions {
  /** Use this store instead of a fresh one from `makeStore()`. */
  store?: AppStore;
  /** The address the memory router starts at. */
  route?: string;
  /** Set when the test uses `vi.useFakeTimers()`, so user-event advances them while it types. */
  fakeTimers?: boolean;
}

function setUp(routes: RouteObject[], { store, route = '/', fakeTimers = false, ...storeOptions }: RenderOptions) {
  const appStore = store ?? makeStore(storeOptions);
  const router = createMemoryRouter(routes, { initialEntries: [route] });
  const user = userEvent.setup(fakeTimers ? { advanceTimers: vi.advanceTimersByTime.bind(vi) } : {});
  const view = render(
    <AppProvider store={appStore}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  /** The address bar: path plus query string. */
  const location = () => `${router.state.location.pathname}${router.state.location.search}`;
  return { ...view, store: appStore, router, user, location };
}

/** A store exactly as the app builds it (API middleware and every feature's listeners). */
export function makeTestStore(options: MakeStoreOptions = {}): AppStore {
  return makeStore(options);
}

/** Renders one component with the store and a router around it. */
export function renderWithProviders(ui: ReactElement, options: RenderOptions = {}) {
  return setUp([{ path: '*', element: ui }], options);
}

/** Renders routes of the test's own (e.g. a screen that loads slowly) with the store around them. */
export function renderRoutes(routes: RouteObject[], options: RenderOptions = {}) {
  return setUp(routes, options);
}

/** Renders the whole app, routes and guards included, at `route`. */
export function renderApp(route: string, options: Omit<RenderOptions, 'route'> = {}) {
  return setUp(createAppRoutes(), { ...options, route });
}
