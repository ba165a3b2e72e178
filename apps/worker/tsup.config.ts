import { defineConfig } from 'tsup';
import { nodeAppBundle } from '../../tsup.base';

// Recognition jobs run in child processes BullMQ starts from a file of their own beside main.js;
// the browser host is a process of its own too.
export default defineConfig(
  nodeAppBundle({
    main: 'src/main.ts',
    'recognition.sandbox': 'src/processors/recognition.sandbox.ts',
    // `./pagewright browser-host`: Playwright's browser server for workers on other machines.
    'browser-host': 'src/browser-host/main.ts',
  }),
);
