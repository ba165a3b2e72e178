import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';

const require = createRequire(import.meta.url);
/** English data shipped on npm (@tesseract.js-data/eng): nothing downloads at run time. */
const LANG_PATH = path.join(
  path.dirname(require.resolve('@tesseract.js-data/eng/package.json')),
  '4.0.0_best_int',
);

let worker: Promise<Worker> | null = null;

/** This process's one OCR engine, started on first use (about half a second) and kept. */
function engine(): Promise<Worker> {
  worker ??= (async () => {
    const started = await createWorker('eng', OEM.LSTM_ONLY, {
      langPath: LANG_PATH,
      gzip: true,
      // The data is read from the package every start, never cached in the working directory.
      cacheMethod: 'none',
    });
    // A box holds a line or a few: one uniform block of text.
    await started.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_BLOCK, preserve_interword_spaces: '1' });
    return started;
  })();
  return worker;
}

/** The text in an image of a box (PNG), lines kept, spaces collapsed. */
export async function ocrText(png: Buffer): Promise<string> {
  const { data } = await (await engine()).recognize(png);
  return data.text
    .split('\n')
    .map((line) => line.replace(/\s+/gu, ' ').trim())
    .filter((line) => line.length > 0)
    .join('\n');
}
