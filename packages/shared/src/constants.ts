/** Business constants and limits from the specs (automation §9, data/messaging §9). */
export const APP_VERSION = '0.15.1';

export const NAME_MAX_LENGTH = 128;
export const DESCRIPTION_MAX_LENGTH = 1024;
export const VIEWER_EMAIL_MAX_LENGTH = 255;
export const TEXT_FIELD_MAX_LENGTH = 1024;
/** An action's label is one of the spec's text fields (max 1024), not a name. */
export const ACTION_LABEL_MAX_LENGTH = TEXT_FIELD_MAX_LENGTH;
export const EMAIL_MAX_LENGTH = 255;
export const PERSON_NAME_MAX_LENGTH = 128;

export const PASSWORD_MIN_LENGTH = 9;
export const PASSWORD_MIN_LETTERS = 4;
export const PASSWORD_MIN_DIGITS = 4;
/**
 * Longest password accepted anywhere (sign-in included): argon2 hashes whatever it is given, and a
 * 1 MB password cost 0.8 s of CPU per attempt. The specs give no maximum (docs/decisions.md).
 */
export const PASSWORD_MAX_LENGTH = 128;
/** Remaining days at or below which login warns that the password will expire. */
export const PASSWORD_EXPIRY_WARNING_DAYS = 14;

export const WAIT_SECONDS_MIN = 0;
export const WAIT_SECONDS_MAX = 60;
export const SEQUENCE_STEP = 10;
export const IF_SEQUENCE_MAX_DIGITS = 10;
export const NUMBER_MASK_AFFIX_MAX_LENGTH = 1;

export const LIST_REFRESH_INTERVAL_MS = 5000;
export const CHECK_IMAGE_REFRESH_INTERVAL_MS = 4000;
export const PENDING_ASK_CHECK_DELAY_MS = 1000;
export const PENDING_ASK_CHECK_INTERVAL_MS = 3000;
export const INSERTOR_LIST_FIRST_LOAD_DELAY_MS = 1000;
export const NAVIGATOR_LIST_FIRST_LOAD_DELAY_MS = 500;
export const SCREEN_SHARE_POLL_MS = 3000;
export const SCREEN_SHARE_POLL_AFTER_FAILURE_MS = 5000;
/** The screen-share viewer reads the live page this often while its tab is visible (issue 22). */
export const SCREEN_SHARE_LIVE_POLL_MS = 500;
export const DIALOG_CONFIRM_COOLDOWN_MS = 500;
export const MAX_TOASTS = 3;
export const EMAIL_CHECK_DEBOUNCE_MS = 1500;
export const FORM_PREFILL_DELAY_MS = 100;

export const DEFAULT_TIME_ZONE = 'Etc/GMT0';
export const DATE_MASKS = ['MM/dd/yyyy', 'dd/MM/yyyy', 'hh:mm:ss', 'MM/dd/yyyy hh:mm:ss'] as const;
export const DEFAULT_DECIMAL_SEPARATOR = '.';
export const DEFAULT_GROUP_SEPARATOR = ',';

export const MESSAGE_BODY_MIN_ROWS = 15;
export const MESSAGE_BODY_MAX_ROWS = 1000;
export const MESSAGE_SUBJECT_LIST_CUT = 27;
export const MESSAGE_SUBJECT_LIST_MAX = 30;
export const RECIPIENT_SEPARATOR = ';';
/** To, Cc, Bcc, Subject and Body each (data spec §5, §9). */
export const MESSAGE_FIELD_MAX_LENGTH = 1024;
/** Beyond the spec: files one message carries (their total is capped by the body limit). */
export const MESSAGE_ATTACHMENTS_MAX = 20;
/** Beyond the spec: rows per page of the dashboard's sent and received lists. */
export const MESSAGE_LIST_PAGE_SIZE = 50;
export const MESSAGE_LIST_PAGE_SIZE_MAX = 200;

/**
 * Key fields a dataset may have: its rows are kept unique by one index over the key fields, and a
 * PostgreSQL index holds at most 32 columns.
 */
export const DATASET_KEY_FIELDS_MAX = 32;

export const SCHEDULER_INTERVAL_MIN = 1;
export const SCHEDULER_INTERVAL_MAX = 1440;
export const SCHEDULER_DAY_OF_MONTH_MAX = 31;
export const SORT_SEQUENCE_MIN = 1;
export const SORT_SEQUENCE_MAX = 9;
export const QUERY_PAGE_SIZES = [5, 10, 25] as const;
export const QUERY_DEFAULT_PAGE_SIZE = 5;

export const RECOGNITION_MAX_FILES = 100;
export const CONSOLIDATED_PAGE_SIZES = [100, 500, 1000] as const;
export const CONSOLIDATED_DEFAULT_PAGE_SIZE = 100;
export const CONSOLIDATED_COLUMNS_PER_RECORD = 4;
export const CSV_NEWLINE_MARKER = '__NL__';
export const PROGRESS_HIDE_DELAY_MS = 2000;

export const ANNOTATION_HISTORY_DEPTH = 10;
export const ANNOTATION_ZOOM_MIN = 0.05;
export const ANNOTATION_ZOOM_MAX = 2;
export const ANNOTATION_MOUSE_THROTTLE_MS = 16;
export const ANNOTATION_BOX_DISCARD_THRESHOLD = 0.002;
export const ANNOTATION_CLASS_COLOURS = 12;

/** Release notes listed on the help page; the build renders each from docs/release-notes. */
export const RELEASE_NOTES = [
  { id: 'extractor', title: 'Extractor release notes', file: 'extractor-release-notes.pdf' },
  { id: 'data-insertor', title: 'Data Insertor release notes', file: 'data-insertor-release-notes.pdf' },
  { id: 'screen-share', title: 'Screen Share release notes', file: 'screen-share-release-notes.pdf' },
  { id: 'public-api', title: 'Public API release notes', file: 'public-api-release-notes.pdf' },
] as const;

/** WAIT_UNTIL_*, CLICK_IF_* and IF_* wait at most this long for their element (options.timeoutMs). */
export const ACTION_TIMEOUT_MAX_MS = 120_000;
/**
 * How long a page's JavaScript dialog waits for the operator's answer while recording (issue 22);
 * then it is dismissed and the step fails. Shorter than the API's wait for the step (120 s).
 */
export const PAGE_DIALOG_ANSWER_TIMEOUT_MS = 90_000;
