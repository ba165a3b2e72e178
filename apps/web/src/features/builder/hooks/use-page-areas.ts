import { useCallback, useEffect, useState } from 'react';
import type { ExtractorType, PageElementArea } from '@pagewright/shared';
import { getPageAreas, reloadPage } from '../api/page-calls';

/**
 * The element areas of the live page (hover outlines, table picking), read again whenever
 * `pageVersion` changes: after each action, validation, reload, or when the page settled after
 * changing by itself. A read that is overtaken by a newer one is dropped.
 */
export function usePageAreas(extractorType: ExtractorType, pageVersion: number, isEnabled: boolean) {
  const [areas, setAreas] = useState<readonly PageElementArea[]>([]);

  useEffect(() => {
    if (!isEnabled) return undefined;
    const controller = new AbortController();
    getPageAreas(extractorType, controller.signal)
      .then((page) => setAreas(page.areas))
      // Hovering simply shows no outline until the next read succeeds.
      .catch(() => undefined);
    return () => controller.abort();
  }, [extractorType, pageVersion, isEnabled]);

  /**
   * GET /extractor/normalized/reload: replays the draft's steps (reloads a page without any) and
   * takes its fresh areas; answers the page with how far the replay got.
   */
  const reload = useCallback(async () => {
    const page = await reloadPage(extractorType);
    setAreas(page.areas);
    return page;
  }, [extractorType]);

  return { areas, reload };
}
