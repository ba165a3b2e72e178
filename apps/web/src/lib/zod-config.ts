import { z } from 'zod';

// The API's Content-Security-Policy allows no eval: zod must not probe `new Function` (the browser
// reports the caught attempt as a CSP violation). Imported first by main.tsx, before any parse.
z.config({ jitless: true });
