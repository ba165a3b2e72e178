import { config, locales } from 'zod/mini';

// The API's Content-Security-Policy allows no eval: zod must not probe `new Function` (the browser
// reports the caught attempt as a CSP violation). Imported first by main.tsx, before any parse.
// zod/mini (the account screens' contracts) has no default locale: English, as classic zod sets it,
// so a rule without a text of its own says the same on every screen. Both are zod's one global setting.
config({ ...locales.en(), jitless: true });
