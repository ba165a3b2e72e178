import {
  USER_SETTINGS,
  defaultUserSettings,
  isUserSettingName,
  type SettingResponse,
  type UserSettingName,
  type UserSettings,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import type { SettingsRepository } from './settings.repository.js';

function settingName(name: string): UserSettingName {
  if (!isUserSettingName(name)) throw new AppError('NOT_FOUND', `Unknown setting: ${name}`, 'name');
  return name;
}

/** Per-user settings with the spec's defaults; every read and write is the caller's own. */
export function createSettingsService(settings: SettingsRepository) {
  return {
    async getAll(userId: string): Promise<UserSettings> {
      const stored = await settings.findAll(userId);
      const all = defaultUserSettings();
      for (const row of stored) if (isUserSettingName(row.name)) all[row.name] = row.value;
      return all;
    },

    async get(userId: string, rawName: string): Promise<SettingResponse> {
      const name = settingName(rawName);
      const stored = await settings.find(userId, name);
      return { name, value: stored?.value ?? USER_SETTINGS[name].defaultValue };
    },

    async set(userId: string, rawName: string, value: string): Promise<SettingResponse> {
      const name = settingName(rawName);
      const parsed = USER_SETTINGS[name].schema.safeParse(value);
      if (!parsed.success) {
        throw AppError.validation(
          `Invalid value for ${name}: ${parsed.error.issues[0]?.message ?? 'not allowed'}`,
          'value',
        );
      }
      await settings.upsert(userId, name, parsed.data);
      return { name, value: parsed.data };
    },
  };
}
