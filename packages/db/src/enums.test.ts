import { describe, expect, it } from 'vitest';
import * as shared from '@pagewright/shared';
import * as db from './generated/enums.js';

/** The database enums and the shared ones the API, worker and SPA use must hold the same values. */
const pairs: [keyof typeof db, readonly string[]][] = [
  ['ExtractorType', shared.EXTRACTOR_TYPES],
  ['RunStatus', shared.RUN_STATUSES],
  ['ActionType', shared.ACTION_TYPES],
  ['SelectorType', shared.SELECTOR_TYPES],
  ['Condition', shared.CONDITIONS],
  ['ValueType', shared.VALUE_TYPES],
  ['DatasetType', shared.DATASET_TYPES],
  ['QueryType', shared.QUERY_TYPES],
  ['OrderType', shared.ORDER_TYPES],
  ['ScheduleType', shared.SCHEDULE_TYPES],
  ['DayOfWeek', shared.DAYS_OF_WEEK],
  ['MappingType', shared.MAPPING_TYPES],
  ['RecognitionJobStatus', shared.RECOGNITION_JOB_STATUSES],
  ['RunTrigger', shared.RUN_TRIGGERS],
  ['PendingAskStatus', shared.PENDING_ASK_STATUSES],
  ['RecipientKind', shared.RECIPIENT_KINDS],
];

describe('database enums match packages/shared', () => {
  it.each(pairs)('%s', (name, values) => {
    expect(Object.values(db[name] as Record<string, string>).sort()).toEqual([...values].sort());
  });
});
