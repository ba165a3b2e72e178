import {
  actionNormalizedResponseSchema,
  allScreenshotsResponseSchema,
  evaluatePointResponseSchema,
  liveImageResponseSchema,
  normalizedPageSchema,
  screenshotResponseSchema,
  type ActionNormalized,
  type DialogAnswer,
  type LookAroundRequest,
  type EvaluatePointResponse,
  type ExtractorType,
  type LiveImageResponse,
  type NormalizedPage,
  type Point,
  type ScreenshotResponse,
} from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';
import { builderPath } from './builder-path';

/** Calls that read the live page. All quiet: the page view shows its own state. */

/** GET /extractor/normalized/current: the element areas of the page as it is (hover, table picking). */
export function getPageAreas(extractorType: ExtractorType, signal?: AbortSignal): Promise<NormalizedPage> {
  return apiRequest(builderPath('/extractor/normalized/current', extractorType), {
    schema: normalizedPageSchema,
    quiet: true,
    signal,
  });
}

/** GET /extractor/normalized/reload: reloads the live page, then reads it again. */
export function reloadPage(extractorType: ExtractorType): Promise<NormalizedPage> {
  return apiRequest(builderPath('/extractor/normalized/reload', extractorType), {
    schema: normalizedPageSchema,
    quiet: true,
  });
}

/** POST /extractor/evaluate/point: the element at a point of the page, in page CSS pixels. */
export function evaluatePoint(extractorType: ExtractorType, point: Point): Promise<EvaluatePointResponse> {
  return apiRequest(builderPath('/extractor/evaluate/point', extractorType), {
    method: 'POST',
    body: point,
    schema: evaluatePointResponseSchema,
    quiet: true,
  });
}

/** GET /extractor/getImageNavigator (quiet): the page's latest frame, for when no frame was pushed. */
export function getLiveImage(extractorType: ExtractorType, signal?: AbortSignal): Promise<LiveImageResponse> {
  return apiRequest(builderPath('/extractor/getImageNavigator', extractorType), {
    schema: liveImageResponseSchema,
    quiet: true,
    signal,
  });
}

/** GET /extractor/screenshot?sequence=: one action's page and element pictures. */
export function getActionScreenshot(
  extractorType: ExtractorType,
  sequence: number,
): Promise<ScreenshotResponse> {
  return apiRequest(builderPath('/extractor/screenshot', extractorType, { sequence }), {
    schema: screenshotResponseSchema,
    quiet: true,
  });
}

/** GET /extractor/screenshot/all: every action's element picture, by sequence (one call per load). */
export function getAllScreenshots(extractorType: ExtractorType): Promise<Record<string, string | null>> {
  return apiRequest(builderPath('/extractor/screenshot/all', extractorType), {
    schema: allScreenshotsResponseSchema,
    quiet: true,
  });
}

/** POST /extractor/dialog: the operator's answer to the JavaScript dialog the live page shows. */
export function answerPageDialog(extractorType: ExtractorType, answer: DialogAnswer): Promise<unknown> {
  return apiRequest(builderPath('/extractor/dialog', extractorType), { method: 'POST', body: answer });
}

/** POST /extractor/scroll: the wheel while picking moves the live page; nothing is recorded. */
export function lookAround(extractorType: ExtractorType, request: LookAroundRequest): Promise<unknown> {
  return apiRequest(builderPath('/extractor/scroll', extractorType), { method: 'POST', body: request });
}

/** GET /extractor/edit/normalized?sequence=: replays the steps before `sequence` on the live page. */
export function bringPageToStep(extractorType: ExtractorType, sequence: number): Promise<ActionNormalized> {
  return apiRequest(builderPath('/extractor/edit/normalized', extractorType, { sequence }), {
    schema: actionNormalizedResponseSchema,
    quiet: true,
  });
}
