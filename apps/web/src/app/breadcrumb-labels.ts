import type { UI_LABELS } from '../lib/ui-labels';

/** Only breadcrumb names: none takes interpolation values, so `t(key)` needs no options. */
type LabelKey = Extract<keyof typeof UI_LABELS, `breadcrumb.${string}`> | 'settings.title' | 'help.title';

/**
 * Breadcrumb names of path segments (compared in lower case). Segments not listed (tokens, ids,
 * "dashboard", which is Home itself) add no crumb.
 */
export const SEGMENT_LABELS: Readonly<Record<string, LabelKey>> = {
  extractor: 'breadcrumb.extractor',
  insertor: 'breadcrumb.insertor',
  'screen-share-executor': 'breadcrumb.screen.share',
  'screen-share': 'breadcrumb.screen.share',
  'dataset-extractor': 'breadcrumb.dataset',
  dataset: 'breadcrumb.dataset',
  'query-extractor': 'breadcrumb.query',
  query: 'breadcrumb.query',
  'scheduler-extractor': 'breadcrumb.scheduler',
  scheduler: 'breadcrumb.scheduler',
  settings: 'settings.title',
  help: 'help.title',
  'messaging-new': 'breadcrumb.messaging.new',
  message: 'breadcrumb.message',
  'statement-recognition-new': 'breadcrumb.statement.recognition',
  'template-settings': 'breadcrumb.template.settings',
  file: 'breadcrumb.file',
  'bulk-runs': 'breadcrumb.bulk.run',
};
