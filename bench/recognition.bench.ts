/**
 * Statement recognition at size (issue 15 acceptance: "100 two-page PDFs to a consolidated CSV,
 * pages/s, next to poppler's `pdftotext -bbox` over the same files in the same run — goal ≤ 2×; a
 * 20-page template upload: time and peak RSS; the accuracy table"):
 *  1. product: one user, a template made the way a user makes it (a sample PDF uploaded and
 *     rendered by the worker, ten boxes drawn, anchored to their labels); 100 printed two-page
 *     statements with known values through POST /statement-recognition/pdf-to-text, three at a time
 *     as the screen sends them, then the consolidated CSV: wall time and pages/s.
 *  2. baseline: `pdftotext -bbox` (poppler) over the same 100 files, two at a time (this machine's
 *     cores): wall time and pages/s. Poppler only extracts words with their boxes; the product also
 *     uploads, stores, reads every box, ticks checkboxes and writes the results.
 *  3. a 20-page sample uploaded to a new template: time until the last page image is stored, and
 *     the peak RSS of the worker with its recognition child processes (sampled every 50 ms).
 *  4. accuracy: values read right per variant (printed, shifted with anchored boxes, shifted with
 *     fixed boxes, fillable form, scanned through OCR), BENCH_ACCURACY_FILES files each (10); the
 *     text fields of a real fillable form (IRS 1040, issue 23); PDFs of another layout flagged as
 *     not matching the template.
 * Run: pnpm bench:recognition  (needs PostgreSQL, Redis and pdftotext: installs poppler-utils with
 * apt when missing; uses the build unless BENCH_USE_SOURCE=1). BENCH_FILES changes the 100.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { PDFDocument } from 'pdf-lib';
import {
  parseRecognitionCsv,
  type RecognitionResult,
  type TemplateDto,
  type TemplateImageDto,
} from '@pagewright/shared';
import { createPrismaClient } from '@pagewright/db';
import { createSignedInUser, type SignedInUser } from '../tests/support/accounts.js';
import { waitFor } from '../tests/support/ports.js';
import { treeRss } from '../tests/support/process-tree.js';
import { startStack } from '../tests/support/stack.js';
import {
  STATEMENT_LAYOUT,
  statementPdf,
  statementValues,
  templateBoxes,
  type StatementVariant,
} from '../tests/support/statement-pdfs.js';
import { BLANK_1040, filled1040 } from '../tests/support/form-1040.js';
import { FILLED_1040_VALUES, boxAround } from '../tests/fixtures/pdfs/filled-1040-values.js';
import { benchNodeArgs } from './support/node-args.js';

const FILES = Number(process.env.BENCH_FILES ?? 100);
const ACCURACY_FILES = Number(process.env.BENCH_ACCURACY_FILES ?? 10);
const SCREEN_AT_ONCE = 3;
const POPPLER_AT_ONCE = Math.max(1, os.availableParallelism());
const UPLOAD_PAGES = 20;
const GOAL_RATIO = 2;
const base = '/api/statement-recognition-template';
const run = promisify(execFile);

const line = (label: string, text: string) => console.log(`${label.padEnd(58)} ${text}`);
const secondsText = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Runs `work` over `items`, `atOnce` at a time. */
async function pooled<T, R>(
  items: readonly T[],
  atOnce: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: atOnce }, async () => {
      while (next < items.length) {
        const index = next;
        next += 1;
        results[index] = await work(items[index] as T, index);
      }
    }),
  );
  return results;
}

function ensurePdftotext(): void {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
  } catch {
    console.log('pdftotext missing: installing poppler-utils with apt…');
    execFileSync('apt-get', ['install', '-y', '-qq', 'poppler-utils'], { stdio: 'inherit' });
  }
}

ensurePdftotext();
const useBuild = process.env.BENCH_USE_SOURCE !== '1';
const loadAtStart = os.loadavg()[0] ?? 0;
const stack = await startStack({
  nodeArgs: benchNodeArgs('recognition'),
  useBuild,
  env: { LOG_LEVEL: 'error', ACCESS_TOKEN_TTL_SECONDS: '7200' },
  logDirectory: 'bench-logs',
});
const db = createPrismaClient(stack.databaseUrl);
const api = () => request(stack.apiUrl);
const folder = mkdtempSync(path.join(os.tmpdir(), 'pagewright-bench-recognition-'));

async function newTemplate(
  user: SignedInUser,
  name: string,
  sample: Uint8Array,
  pages: number,
  anchored: boolean,
  /** The boxes of a page; the statement's own layout when not given. */
  boxesOf: (pageIndex: number, image: TemplateImageDto) => object[] = (index) =>
    templateBoxes(index, anchored),
) {
  const bearer = { Authorization: `Bearer ${user.token}` };
  const template = (await api().put(`${base}/`).set(bearer).send({ templateName: name }).expect(200))
    .body as TemplateDto;
  await api()
    .post(`${base}/upload-pdf/${template.id}`)
    .set(bearer)
    .attach('file', Buffer.from(sample), 'sample.pdf')
    .expect(202);
  const images = await waitFor(
    async () => {
      const listed = (await api().get(`${base}/images/template/${template.id}`).set(bearer).expect(200))
        .body as TemplateImageDto[];
      return listed.length === pages ? listed : undefined;
    },
    `${pages} pages`,
    300_000,
  );
  for (const [index, image] of images.slice(0, STATEMENT_LAYOUT.length).entries()) {
    const mappings = boxesOf(index, image);
    if (mappings.length === 0) continue;
    await api().put(`${base}/mappings/image/${image.id}`).set(bearer).send({ mappings }).expect(200);
  }
  return template;
}

const recognize = (user: SignedInUser, templateId: string, pdf: Uint8Array, name: string) =>
  api()
    .post(`/api/statement-recognition/pdf-to-text/${templateId}`)
    .set({ Authorization: `Bearer ${user.token}` })
    .attach('file', Buffer.from(pdf), { filename: name, contentType: 'application/pdf' })
    .expect(200)
    .then((response) => response.body as RecognitionResult);

try {
  const user = await createSignedInUser(db, stack.apiUrl, stack.mailUrl, 'bench-recognition');
  const bearer = { Authorization: `Bearer ${user.token}` };
  const template = await newTemplate(user, 'KYC', await statementPdf(statementValues(0)), 2, true);

  // 1. The product: 100 statements, three at a time, then the consolidated CSV.
  const files: { name: string; bytes: Uint8Array }[] = [];
  for (let index = 0; index < FILES; index += 1) {
    const bytes = await statementPdf(statementValues(index + 1));
    const name = `statement-${String(index + 1).padStart(3, '0')}.pdf`;
    writeFileSync(path.join(folder, name), bytes);
    files.push({ name, bytes });
  }
  // Every recognition child process starts (PDF.js, Prisma) on its first job: warm them all.
  await pooled(files.slice(0, 2 * os.availableParallelism()), 2 * os.availableParallelism(), (file, index) =>
    recognize(user, template.id, file.bytes, `warm-up-${index}.pdf`),
  );
  const productStart = performance.now();
  const results = await pooled(files, SCREEN_AT_ONCE, (file) =>
    recognize(user, template.id, file.bytes, file.name),
  );
  const csv = await api()
    .post('/api/statement-recognition/text-to-csv-consolidated')
    .set(bearer)
    .send({ tokenList: results.map(({ token }) => token) })
    .expect(200);
  const productMs = performance.now() - productStart;
  const pages = results.reduce((sum, result) => sum + result.pageCount, 0);
  const rows = parseRecognitionCsv(csv.text);
  const rightInCsv = rows.filter((row) => {
    const index = Number(/(\d+)\.pdf$/u.exec(row.filename)?.[1] ?? 0);
    return statementValues(index)[row.label] === row.value;
  }).length;

  // 2. Baseline: poppler over the same files, one a core at a time.
  const names = files.map(({ name }) => name);
  await run('pdftotext', ['-bbox', path.join(folder, names[0]!), '-']);
  const popplerStart = performance.now();
  await pooled(names, POPPLER_AT_ONCE, (name) =>
    run('pdftotext', ['-bbox', path.join(folder, name), path.join(folder, `${name}.html`)]),
  );
  const popplerMs = performance.now() - popplerStart;

  // 3. A 20-page sample: time to the last page image, peak RSS of the worker and its children.
  const twoPages = await PDFDocument.load(await statementPdf(statementValues(1)));
  const twenty = await PDFDocument.create();
  for (let copy = 0; copy < UPLOAD_PAGES / 2; copy += 1)
    for (const page of await twenty.copyPages(twoPages, [0, 1])) twenty.addPage(page);
  const twentyBytes = await twenty.save();
  const workerPid = stack.worker.child.pid ?? 0;
  const rssBefore = treeRss(workerPid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, treeRss(workerPid));
  }, 50);
  const uploadStart = performance.now();
  await newTemplate(user, 'Twenty pages', twentyBytes, UPLOAD_PAGES, true);
  const uploadMs = performance.now() - uploadStart;
  clearInterval(sampler);

  // 4. Accuracy per variant.
  const fixed = await newTemplate(user, 'KYC fixed boxes', await statementPdf(statementValues(0)), 2, false);
  const variants: { label: string; variant: StatementVariant; templateId: string }[] = [
    { label: 'printed', variant: 'printed', templateId: template.id },
    { label: 'shifted (20, 37) pt, anchored boxes', variant: 'shifted', templateId: template.id },
    { label: 'shifted (20, 37) pt, fixed boxes', variant: 'shifted', templateId: fixed.id },
    { label: 'fillable form (checkbox fields)', variant: 'form', templateId: template.id },
    { label: 'scanned (pictures only: OCR)', variant: 'scanned', templateId: template.id },
  ];
  const accuracy: { label: string; right: number; total: number; ms: number }[] = [];
  for (const { label, variant, templateId } of variants) {
    let right = 0;
    let total = 0;
    const start = performance.now();
    for (let index = 200; index < 200 + ACCURACY_FILES; index += 1) {
      const expected = statementValues(index);
      const { token } = await recognize(
        user,
        templateId,
        await statementPdf(expected, variant),
        `${variant}-${index}.pdf`,
      );
      const read = (
        await api()
          .post('/api/statement-recognition/find')
          .set(bearer)
          .send({ tokenList: [token] })
          .expect(200)
      ).body as { label: string; value: string }[];
      total += Object.keys(expected).length;
      right += read.filter(({ label: field, value }) => expected[field] === value).length;
    }
    accuracy.push({ label, right, total, ms: (performance.now() - start) / ACCURACY_FILES });
  }

  // 4b. A real fillable form (IRS 1040, 2019: XFA with its AcroForm fields): typed values read
  // from the text fields, ACCURACY_FILES forms with other values each.
  const formTemplate = await newTemplate(
    user,
    'Form 1040',
    readFileSync(BLANK_1040),
    2,
    true,
    (index, image) =>
      index > 0
        ? []
        : FILLED_1040_VALUES.map(({ label, rect }) => ({
            mapping_label: label,
            ...boxAround(rect),
            pixel_width: image.pixelWidth,
            pixel_height: image.pixelHeight,
          })),
  );
  const formFiles = Array.from({ length: ACCURACY_FILES }, (_, file) =>
    FILLED_1040_VALUES.map(({ field, label, value }) => ({ field, label, value: `${value} ${file + 1}` })),
  );
  let formRight = 0;
  const formStart = performance.now();
  for (const [file, typed] of formFiles.entries()) {
    const { token } = await recognize(user, formTemplate.id, await filled1040(typed), `f1040-${file}.pdf`);
    const read = (
      await api()
        .post('/api/statement-recognition/find')
        .set(bearer)
        .send({ tokenList: [token] })
        .expect(200)
    ).body as { label: string; value: string }[];
    formRight += typed.filter(({ label, value }) =>
      read.some((row) => row.label === label && row.value === value),
    ).length;
  }
  accuracy.push({
    label: 'form text fields (real IRS 1040, goal 100 %)',
    right: formRight,
    total: ACCURACY_FILES * FILLED_1040_VALUES.length,
    ms: (performance.now() - formStart) / ACCURACY_FILES,
  });

  // 4c. PDFs that do not match the template: statements through the 1040's template and 1040s
  // through the statement's. Flagged = the result says "does not match"; read silently otherwise.
  let flagged = 0;
  let silent = 0;
  const mismatchStart = performance.now();
  for (let index = 0; index < ACCURACY_FILES; index += 1) {
    const pairs: [string, Uint8Array][] = [
      [formTemplate.id, await statementPdf(statementValues(300 + index))],
      [template.id, await filled1040(formFiles[index] ?? [])],
    ];
    for (const [templateId, pdf] of pairs) {
      const result = await recognize(user, templateId, pdf, `other-${index}.pdf`);
      if (result.matchesTemplate) silent += 1;
      else flagged += 1;
    }
  }
  const mismatchMs = (performance.now() - mismatchStart) / (2 * ACCURACY_FILES);

  const productRate = pages / (productMs / 1000);
  const popplerRate = pages / (popplerMs / 1000);
  console.log('');
  console.log(
    `Statement recognition — ${os.availableParallelism()} cores, load ${loadAtStart.toFixed(2)} at start, ${useBuild ? 'build' : 'sources'}`,
  );
  line(
    `1. product: ${FILES} two-page PDFs → consolidated CSV`,
    `${secondsText(productMs)}, ${productRate.toFixed(1)} pages/s (${SCREEN_AT_ONCE} uploads at a time)`,
  );
  line('   values right in the consolidated CSV', `${rightInCsv} / ${rows.length}`);
  line(
    `2. baseline: pdftotext -bbox, same ${FILES} files`,
    `${secondsText(popplerMs)}, ${popplerRate.toFixed(1)} pages/s (${POPPLER_AT_ONCE} at a time)`,
  );
  line(
    '   product time / poppler time',
    `${(productMs / popplerMs).toFixed(2)}× (goal ≤ ${GOAL_RATIO}×)${productMs / popplerMs <= GOAL_RATIO ? '' : '  ← over the goal'}`,
  );
  line(`3. ${UPLOAD_PAGES}-page template upload → last page stored`, secondsText(uploadMs));
  line(
    '   worker + recognition children RSS: before / peak',
    `${mb(rssBefore)} / ${mb(rssPeak)} (+${mb(rssPeak - rssBefore)})`,
  );
  console.log('4. accuracy per variant (values read right)');
  for (const { label, right, total, ms } of accuracy) {
    line(
      `   ${label}`,
      `${right} / ${total}  ${((100 * right) / total).toFixed(1)} %  (${(ms / 1000).toFixed(2)} s a file)`,
    );
  }
  const others = flagged + silent;
  line(
    '   non-matching PDF flagged (goal 100 % flagged, 0 % silently read)',
    `${flagged} / ${others} flagged ${((100 * flagged) / others).toFixed(1)} %, ${((100 * silent) / others).toFixed(1)} % silently read  (${(mismatchMs / 1000).toFixed(2)} s a file)`,
  );
} finally {
  rmSync(folder, { recursive: true, force: true });
  await db.$disconnect();
  await stack.stop();
}
