import { defineConfig } from 'tsup';
import { nodeAppBundle } from '../../tsup.base';

// The export's workbook writer runs in a worker thread, so it is a file of its own beside server.js.
export default defineConfig(
  nodeAppBundle({
    server: 'src/server.ts',
    'query-workbook.worker': 'src/modules/queries/query-workbook.worker.ts',
  }),
);
