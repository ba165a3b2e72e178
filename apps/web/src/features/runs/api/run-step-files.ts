import type { RunStepScreenshotKind } from '@pagewright/shared';
import { apiFetch } from '../../../lib/api-client';
import { saveSessionAttachment } from '../../../lib/file-download';
import { runPath } from './get-run';

/** One GET_TABLE FILE cell, by its row and column in the table value. */
export interface TableCell {
  row: number;
  column: number;
}

const stepPath = (runId: string, sequence: number) => `${runPath(runId)}/step/${sequence}`;

/** .../step/:sequence/file, or a table cell's file with ?row=&column=. */
export function runStepFilePath(runId: string, sequence: number, cell?: TableCell): string {
  const query = cell ? `?row=${cell.row}&column=${cell.column}` : '';
  return `${stepPath(runId, sequence)}/file${query}`;
}

export function runStepScreenshotPath(runId: string, sequence: number, kind: RunStepScreenshotKind): string {
  return `${stepPath(runId, sequence)}/screenshot?kind=${kind}`;
}

/** Saves a step's file (or a table cell's) through the browser; resolves with the saved name. */
export function downloadRunStepFile(
  runId: string,
  sequence: number,
  fallbackName: string,
  cell?: TableCell,
): Promise<string> {
  return saveSessionAttachment(runStepFilePath(runId, sequence, cell), fallbackName);
}

/** GET .../step/:sequence/html: the page's normalized HTML after the step, as plain text. */
export async function getRunStepHtml(runId: string, sequence: number, signal?: AbortSignal): Promise<string> {
  const response = await apiFetch(`${stepPath(runId, sequence)}/html`, { signal });
  return response.text();
}

/** The bytes of a picture or file of the run (the session's bearer header goes along). */
export async function getRunBlob(path: string, signal?: AbortSignal): Promise<Blob> {
  const response = await apiFetch(path, { signal });
  return response.blob();
}
