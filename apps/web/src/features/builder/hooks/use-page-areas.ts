import { useCallback, useEffect, useState } from 'react';
import type { ExtractorType, PageElementArea } from '@pagewright/shared';
import { getPageAreas, reloadPage } from '../api/page-calls';
import type { EngineCarrier } from './use-engine-data';

/**
 * The element areas of the live page (hover outlines, table picking), read again whenever
 * `pageVersion` changes: after each action, validation, reload, or when the page settled after
 * changing by itself. A read that is overtaken by a newer one is dropped. Each read also hands
 * on what it carries of the F-engine (`onEngineData`, which must be stable).
 */
export function usePageAreas(
  extractorType: ExtractorType,
  pageVersion: number,
  isEnabled: boolean,
  onEngineData: (carrier: EngineCarrier) => void,
) {
  const [areas, setAreas] = useState<readonly PageElementArea[]>([]);

  useEffect(() => {
    if (!isEnabled) return undefined;
    const controller = new AbortController();
    getPageAreas(extractorType, controller.signal)
      .then((page) => {
        setAreas(page.areas);
        onEngineData(page);
      })
      // Hovering simply shows no outline until the next read succeeds.
      .catch(() => undefined);
    return () => controller.abort();
  }, [extractorType, pageVersion, isEnabled, onEngineData]);

  /**
   * GET /extractor/normalized/reload: replays the draft's steps (reloads a page without any) and
   * takes its fresh areas; answers the page with how far the replay got.
   */
  const reload = useCallback(async () => {
    const page = await reloadPage(extractorType);
    setAreas(page.areas);
    onEngineData(page);
    return page;
  }, [extractorType, onEngineData]);

  return { areas, reload };
}
