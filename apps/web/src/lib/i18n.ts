import { i18n } from './i18n-core';
import { UI_LABELS } from './ui-labels';

// The app's own labels join the bundle when the app's frame (app-layout.tsx) or a test imports this
// module: every screen that uses them renders inside that frame, after its code has loaded.
i18n.addResourceBundle('en', 'translation', UI_LABELS, true, true);

export { i18n };
