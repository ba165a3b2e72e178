import { validationResultSchema, type ExtractorType, type ValidationResult } from '@pagewright/shared';
import { ApiError, apiStream } from '../../../lib/api-client';
import { builderPath } from './builder-path';

export interface ValidationProgress {
  /** 0–100: the fraction of the flow started so far. */
  progress: number;
  /** The type of the action being run. */
  actionType: string;
}

const PROGRESS_LINE = /^(\d{1,3})\|(.+)$/;

/**
 * GET /extractor/validate: one `progress|type` line per step as it starts, then one JSON line with
 * the result (docs/automation-runtime.md "Validation"). Lines are handled as they arrive, so the
 * progress bar follows the run instead of jumping at the end.
 */
export async function validateBuilder(
  extractorType: ExtractorType,
  onProgress: (progress: ValidationProgress) => void,
  signal?: AbortSignal,
): Promise<ValidationResult> {
  const body = await apiStream(builderPath('/extractor/validate', extractorType), { signal });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  let result: ValidationResult | null = null;
  const handle = (line: string) => {
    const trimmed = line.trim();
    if (trimmed.length === 0) return;
    const progress = PROGRESS_LINE.exec(trimmed);
    if (progress) {
      onProgress({ progress: Number(progress[1]), actionType: progress[2] ?? '' });
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch {
      return;
    }
    const parsed = validationResultSchema.safeParse(json);
    if (parsed.success) result = parsed.data;
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    lines.forEach(handle);
  }
  handle(buffered);
  if (!result) {
    throw new ApiError({
      status: 0,
      message: 'The validation ended without a result',
      code: 'INVALID_RESPONSE',
      hasServerMessage: false,
    });
  }
  return result;
}
