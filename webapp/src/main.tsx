import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from './app/app';
import { makeStore } from './app/store';
import './app/app.css';

const container = document.getElementById('root');
if (container === null) throw new Error('Elemento #root ausente em index.html');

createRoot(container).render(
  <StrictMode>
    <App store={makeStore()} />
  </StrictMode>,
);
