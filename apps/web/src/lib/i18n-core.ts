import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MESSAGES } from '@pagewright/shared';
import { ACCOUNT_LABELS } from './account-labels';
import type { UI_LABELS } from './ui-labels';

/**
 * One flat `en` bundle: the spec texts from @pagewright/shared (the API sends the same ones) plus the
 * SPA's own labels. Keys contain dots (`login.error.credentials`), so key and namespace separators
 * are off. It starts with the labels of the first download (account-labels.ts); i18n.ts adds the
 * others, which the app's frame imports, so the login page does not carry them.
 */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof MESSAGES & typeof ACCOUNT_LABELS & typeof UI_LABELS };
    keySeparator: false;
    nsSeparator: false;
  }
}

void i18n.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  resources: { en: { translation: { ...MESSAGES, ...ACCOUNT_LABELS } } },
  keySeparator: false,
  nsSeparator: false,
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

export { i18n };
