import * as z from './zod.js';
import { USER_SETTING_NAMES } from '../settings.js';

export const settingParamSchema = z.object({ name: z.string().max(64) });
export const settingValueRequestSchema = z.object({ value: z.string().max(256) });
export const settingResponseSchema = z.object({ name: z.enum(USER_SETTING_NAMES), value: z.string() });
export type SettingResponse = z.infer<typeof settingResponseSchema>;
export const allSettingsResponseSchema = z.record(z.string(), z.string());
