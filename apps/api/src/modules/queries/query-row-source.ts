import type { QueryResultService } from './query-results.service.js';

/**
 * A dataset's rows or a saved query's results by column name, for a bulk run's inputs (issue 26):
 * the first `limit` rows, read as the public API reads them. Another user's answers 404.
 */
export function createQueryRowSource(results: QueryResultService) {
  return {
    async read(userId: string, source: { kind: 'DATASET' | 'QUERY'; id: string }, limit: number) {
      const runnable =
        source.kind === 'DATASET'
          ? await results.wholeDataset(userId, source.id)
          : await results.savedQuery(userId, source.id);
      const columns = runnable.columns.map((column) => column.name);
      const page = await results.pageAt(runnable, null, limit);
      return {
        name: runnable.name,
        columns,
        rows: page.rows.map((row) =>
          Object.fromEntries(columns.map((name, index) => [name, row.cells[index]?.value ?? null])),
        ),
      };
    },
  };
}
