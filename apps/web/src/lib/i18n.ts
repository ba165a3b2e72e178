import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MESSAGES } from '@pagewright/shared';
import { UI_LABELS } from './ui-labels';

/**
 * One flat `en` bundle: the spec texts from @pagewright/shared (the API sends the same ones) plus the
 * SPA's own labels. Keys contain dots (`login.error.credentials`), so key and namespace separators
 * are off.
 */
export const translation = { ...MESSAGES, ...UI_LABELS } as const;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof translation };
    keySeparator: false;
    nsSeparator: false;
  }
}

void i18n.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  resources: { en: { translation } },
  keySeparator: false,
  nsSeparator: false,
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

export { i18n };
