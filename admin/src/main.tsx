import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { completeSignIn } from './auth';
import { setSignInError } from './sign-in-state';

// The page's CSP allows inline styles only with this request's nonce (src/admin-console).
const nonce = document.querySelector('meta[name="csp-nonce"]')?.getAttribute('content') ?? '';
const styles = createCache({ key: 'css', nonce });

// Back from the consent page: exchange the code before the console asks whether we are in.
completeSignIn()
  .catch((e: Error) => e.message)
  .then((error) => {
    setSignInError(error);
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <CacheProvider value={styles}>
          <App />
        </CacheProvider>
      </StrictMode>,
    );
  });
