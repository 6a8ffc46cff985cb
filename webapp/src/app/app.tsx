import { useState } from 'react';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';

import { AppProvider } from './provider';
import { createAppRoutes } from './router';
import type { AppStore } from './store';

export function App({ store }: { store: AppStore }) {
  const [router] = useState(() => createBrowserRouter(createAppRoutes()));
  return (
    <AppProvider store={store}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
