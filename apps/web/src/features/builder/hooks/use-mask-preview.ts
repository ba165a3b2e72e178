import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { DateMask, ExtractorType, MaskPreviewResponse, NumberMask } from '@pagewright/shared';
import { previewDateMask, previewNumberMask, type MaskPreviewElement } from '../api/mask-calls';

/** The preview waits until the user stops typing for this long. */
export const MASK_PREVIEW_DEBOUNCE_MS = 300;

type MaskRequest =
  | { kind: 'number'; element: MaskPreviewElement; mask: NumberMask }
  | { kind: 'date'; element: MaskPreviewElement; mask: DateMask };

export interface MaskPreview {
  isPending: boolean;
  result: MaskPreviewResponse | undefined;
  error: unknown;
}

/** Holds a text until it has stopped changing for `delayMs`. */
function useSettledText(text: string, delayMs: number): string {
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(text), delayMs);
    return () => clearTimeout(timer);
  }, [text, delayMs]);
  return settled;
}

/**
 * A live preview of a number or date mask on the picked element (POST /extractor/number/mask or
 * /dateTime/mask, quiet). `request` null (no element, or a mask that breaks its rules) asks nothing.
 */
export function useMaskPreview(extractorType: ExtractorType, request: MaskRequest | null): MaskPreview {
  // A text key: a new object each render must not restart the debounce.
  const key = JSON.stringify(request);
  const settledKey = useSettledText(key, MASK_PREVIEW_DEBOUNCE_MS);
  const settled = JSON.parse(settledKey) as MaskRequest | null;
  const query = useQuery({
    queryKey: ['builder', 'mask-preview', extractorType, settledKey],
    queryFn: ({ signal }) => {
      if (!settled) throw new Error('no mask to preview');
      return settled.kind === 'number'
        ? previewNumberMask(extractorType, settled.element, settled.mask, signal)
        : previewDateMask(extractorType, settled.element, settled.mask, signal);
    },
    enabled: settled !== null,
    retry: false,
    // The page changes as actions run: a preview is only good for the dialog that asked for it.
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  if (request === null) return { isPending: false, result: undefined, error: null };
  return {
    isPending: key !== settledKey || query.isFetching,
    result: key === settledKey ? query.data : undefined,
    error: key === settledKey ? query.error : null,
  };
}
