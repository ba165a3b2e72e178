import './lib/zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { applyFirstLoadRule } from './app/first-load';
import { createAppRouter } from './app/router';

// Before the router reads the address: a tab opened without a session starts at /logout.
applyFirstLoadRule();
const router = createAppRouter();

const container = document.getElementById('root');
if (container === null) throw new Error('The page has no #root element');

createRoot(container).render(
  <StrictMode>
    <App router={router} />
  </StrictMode>,
);
