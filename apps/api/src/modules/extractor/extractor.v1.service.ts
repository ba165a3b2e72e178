import type { V1Extractor } from '@pagewright/shared';
import type { ExtractorV1Repository } from './extractor.v1.repository.js';

/** GET /api/v1/extractors: the key owner's extractors, insertors and navigators. */
export function createExtractorV1Service(extractors: ExtractorV1Repository) {
  return {
    async list(userId: string): Promise<V1Extractor[]> {
      const rows = await extractors.listWithLastRun(userId);
      return rows.map((row) => {
        const [lastRun] = row.runs;
        return {
          id: row.id,
          name: row.name,
          type: row.extractorType,
          status: row.status,
          lastRun: lastRun
            ? {
                id: lastRun.id,
                status: lastRun.status,
                startedAt: lastRun.startedAt.toISOString(),
                finishedAt: lastRun.finishedAt?.toISOString() ?? null,
              }
            : null,
        };
      });
    },
  };
}
export type ExtractorV1Service = ReturnType<typeof createExtractorV1Service>;
