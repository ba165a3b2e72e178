import { defineConfig } from 'tsup';
import { nodeAppBundle } from '../../tsup.base';

// Recognition jobs run in child processes BullMQ starts from a file of their own beside main.js.
export default defineConfig(
  nodeAppBundle({
    main: 'src/main.ts',
    'recognition.sandbox': 'src/processors/recognition.sandbox.ts',
  }),
);
