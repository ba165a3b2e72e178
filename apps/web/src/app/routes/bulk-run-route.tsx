import { Suspense, lazy, useState } from 'react';
import { useParams } from 'react-router-dom';
import { BulkRunPage } from '../../features/bulk-runs/components/bulk-run-page';
import { DialogLoading } from '../../components/route-loading';

// Run results (steps, values, tables, pictures) load when first shown.
const RunResultsDialog = lazy(() =>
  import('../../features/runs/components/run-results-dialog').then((m) => ({ default: m.RunResultsDialog })),
);

/** /bulk-runs/:bulkRunId: the bulk-runs feature's page, whose rows open their run's results. */
export function BulkRunRoute() {
  const { bulkRunId = '' } = useParams();
  const [results, setResults] = useState<{ runId: string; name: string } | null>(null);
  return (
    <>
      <BulkRunPage key={bulkRunId} bulkRunId={bulkRunId} onShowResults={setResults} />
      {results && (
        <Suspense fallback={<DialogLoading />}>
          <RunResultsDialog runId={results.runId} name={results.name} onClose={() => setResults(null)} />
        </Suspense>
      )}
    </>
  );
}
