import { z } from 'zod';
import {
  CHECK_IMAGE_REFRESH_INTERVAL_MS,
  LIST_REFRESH_INTERVAL_MS,
  PENDING_ASK_CHECK_INTERVAL_MS,
} from './constants.js';

const booleanSetting = z.enum(['true', 'false']);
const intervalSetting = z
  .string()
  .regex(/^\d{1,6}$/, 'Must be a whole number of milliseconds')
  .refine((v) => Number(v) >= 500 && Number(v) <= 600000, 'Must be between 500 and 600000 ms');

/**
 * Per-user settings, stored as strings (the spec's `GET/PUT /user/settings/:x` reads 'true'/'false').
 * Each has a validator and the spec's default (automation §3, data §9).
 */
export const USER_SETTINGS = {
  showDataExtractor: { schema: booleanSetting, defaultValue: 'true' },
  showDataInserter: { schema: booleanSetting, defaultValue: 'true' },
  showNavigator: { schema: booleanSetting, defaultValue: 'true' },
  showDatasetAndQueries: { schema: booleanSetting, defaultValue: 'true' },
  showScheduler: { schema: booleanSetting, defaultValue: 'false' },
  showMessaging: { schema: booleanSetting, defaultValue: 'true' },
  showStatementRecognition: { schema: booleanSetting, defaultValue: 'true' },
  readOnlyEdit: { schema: booleanSetting, defaultValue: 'false' },
  headless: { schema: booleanSetting, defaultValue: 'true' },
  language: { schema: z.enum(['en']), defaultValue: 'en' },
  listRefreshInterval: { schema: intervalSetting, defaultValue: String(LIST_REFRESH_INTERVAL_MS) },
  checkImageRefreshInterval: {
    schema: intervalSetting,
    defaultValue: String(CHECK_IMAGE_REFRESH_INTERVAL_MS),
  },
  pendingAskCheckInterval: { schema: intervalSetting, defaultValue: String(PENDING_ASK_CHECK_INTERVAL_MS) },
} as const satisfies Record<string, { schema: z.ZodType<string>; defaultValue: string }>;

export type UserSettingName = keyof typeof USER_SETTINGS;
export const USER_SETTING_NAMES = Object.keys(USER_SETTINGS) as [UserSettingName, ...UserSettingName[]];
export type UserSettings = Record<UserSettingName, string>;

export function isUserSettingName(name: string): name is UserSettingName {
  return Object.hasOwn(USER_SETTINGS, name);
}

export function defaultUserSettings(): UserSettings {
  return Object.fromEntries(
    USER_SETTING_NAMES.map((n) => [n, USER_SETTINGS[n].defaultValue]),
  ) as UserSettings;
}

/** Dashboard panels and the setting flag that shows each (automation spec §2 "Dashboard"). */
export const DASHBOARD_PANELS = [
  { id: 'extractors', title: 'Extractors', setting: 'showDataExtractor' },
  { id: 'insertors', title: 'Insertors', setting: 'showDataInserter' },
  { id: 'datasets', title: 'Datasets', setting: 'showDatasetAndQueries' },
  { id: 'queries', title: 'Queries', setting: 'showDatasetAndQueries' },
  { id: 'scheduler', title: 'Scheduler', setting: 'showScheduler' },
  { id: 'navigators', title: 'Navigators', setting: 'showNavigator' },
  { id: 'messaging', title: 'Messaging', setting: 'showMessaging' },
  { id: 'statement-recognition', title: 'Statement Recognition', setting: 'showStatementRecognition' },
] as const satisfies readonly { id: string; title: string; setting: UserSettingName }[];

/** Panels that stay visible when the F-engine flag is stored. */
export const FENGINE_VISIBLE_PANELS: readonly string[] = ['messaging', 'navigators'];
