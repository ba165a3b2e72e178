import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import request from 'supertest';
import { Redis } from 'ioredis';
import { createPrismaClient } from '@pagewright/db';
import {
  MESSAGES,
  parseCsvCells,
  parseRecognitionCsv,
  type RecognitionResult,
  type RecognizedValue,
  type TemplateDto,
  type TemplateImageDto,
  type TemplateMappingDto,
} from '@pagewright/shared';
import { createSignedInUser, type SignedInUser } from '../support/accounts.js';
import { waitFor } from '../support/ports.js';
import { keysWithoutExpiry } from '../support/redis-keys.js';
import {
  STATEMENT_LAYOUT,
  statementPdf,
  statementValues,
  templateBoxes,
  type StatementValues,
  type StatementVariant,
} from '../support/statement-pdfs.js';
import {
  EMPTY_1040_CHECKBOX_RECT,
  EMPTY_1040_FIELD_RECT,
  FILLED_1040_CHECKBOX_RECT,
  FILLED_1040_VALUES,
  boxAround,
} from '../fixtures/pdfs/filled-1040-values.js';

/**
 * Statement recognition (issue 15) against the real API and worker: templates and their calls,
 * the sample PDF rendered into page images in the worker, boxes, and statements read in every
 * variant (printed, shifted with anchors, fillable form, scanned through OCR) with every value
 * checked, the CSV calls, copy and delete, and another user's reach.
 */

const apiUrl = inject('apiUrl');
const mailUrl = inject('mailUrl');
const db = createPrismaClient(inject('databaseUrl'));
const api = () => request(apiUrl);
const bearer = (user: SignedInUser) => ({ Authorization: `Bearer ${user.token}` });
const base = '/api/statement-recognition-template';

let owner: SignedInUser;
let stranger: SignedInUser;
let template: TemplateDto;
let images: TemplateImageDto[];

async function createTemplate(user: SignedInUser, templateName: string): Promise<TemplateDto> {
  const response = await api().put(`${base}/`).set(bearer(user)).send({ templateName });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as TemplateDto;
}

async function waitForPages(
  user: SignedInUser,
  templateId: string,
  count: number,
): Promise<TemplateImageDto[]> {
  return waitFor(
    async () => {
      const listed = (await api().get(`${base}/images/template/${templateId}`).set(bearer(user)).expect(200))
        .body as TemplateImageDto[];
      return listed.length === count ? listed : undefined;
    },
    `${count} page images`,
    60_000,
  );
}

async function drawBoxes(user: SignedInUser, pages: TemplateImageDto[], anchored = true) {
  for (const [index, image] of pages.entries()) {
    await api()
      .put(`${base}/mappings/image/${image.id}`)
      .set(bearer(user))
      .send({ mappings: templateBoxes(index, anchored) })
      .expect(200);
  }
}

function recognize(user: SignedInUser, templateId: string, pdf: Uint8Array, name: string) {
  return api()
    .post(`/api/statement-recognition/pdf-to-text/${templateId}`)
    .set(bearer(user))
    .attach('file', Buffer.from(pdf), { filename: name, contentType: 'application/pdf' });
}

const values = async (user: SignedInUser, tokenList: string[]) =>
  (await api().post('/api/statement-recognition/find').set(bearer(user)).send({ tokenList }).expect(200))
    .body as RecognizedValue[];

beforeAll(async () => {
  [owner, stranger] = await Promise.all([
    createSignedInUser(db, apiUrl, mailUrl, 'recognition-owner'),
    createSignedInUser(db, apiUrl, mailUrl, 'recognition-stranger'),
  ]);
  template = await createTemplate(owner, 'KYC');
  const upload = await api()
    .post(`${base}/upload-pdf/${template.id}`)
    .set(bearer(owner))
    .attach('file', Buffer.from(await statementPdf(statementValues(0))), 'sample statement.pdf');
  expect(upload.status, JSON.stringify(upload.body)).toBe(202);
  images = await waitForPages(owner, template.id, STATEMENT_LAYOUT.length);
  await drawBoxes(owner, images);
}, 120_000);

afterAll(async () => {
  await db.$disconnect();
});

describe('templates', () => {
  it('lists, names and renames with the texts of the rules', async () => {
    const other = await createTemplate(owner, `Invoice ${Date.now()}`);
    const taken = await api().put(`${base}/`).set(bearer(owner)).send({ templateName: 'KYC' });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ message: MESSAGES['template.name.unique'], field: 'templateName' });
    const blank = await api().put(`${base}/`).set(bearer(owner)).send({ templateName: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe('Template name cannot be empty');
    const renamed = await api()
      .post(`${base}/`)
      .set(bearer(owner))
      .send({ id: other.id, templateName: 'Invoices' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.templateName).toBe('Invoices');
    const listed = (await api().get(`${base}/user`).set(bearer(owner)).expect(200)).body as TemplateDto[];
    expect(listed.find((row) => row.id === template.id)).toMatchObject({
      templateName: 'KYC',
      pageCount: 2,
      mappingCount: 10,
    });
    expect(listed.map((row) => row.templateName)).toContain('Invoices');
  });

  it('rendered the sample into page images an <img> loads through a signed address only', async () => {
    expect(
      images.map(({ pageNumber, pixelWidth, pixelHeight }) => [pageNumber, pixelWidth, pixelHeight]),
    ).toEqual([
      [1, 1131, 1600],
      [2, 1131, 1600],
    ]);
    const [first] = images;
    const picture = await api()
      .get(first?.url ?? '')
      .buffer(true)
      .expect(200);
    expect(picture.headers['content-type']).toBe('image/jpeg');
    expect((picture.body as Buffer).subarray(0, 2).toString('hex')).toBe('ffd8');
    // The uuid alone, a changed signature or a lapsed address open nothing.
    await api().get(`${base}/image/uuid/${first?.imageUuid}`).expect(400);
    // The signature's first character flipped to another one: always a different signature.
    const tampered = (first?.url ?? '').replace(
      /signature=(.)/u,
      (_, character: string) => `signature=${character === 'x' ? 'y' : 'x'}`,
    );
    expect(tampered).not.toBe(first?.url);
    await api().get(tampered).expect(404);
    await api()
      .get((first?.url ?? '').replace(/expires=\d+/u, 'expires=1000'))
      .expect(404);
  });

  it('refuses a file that is not a PDF, a second sample, and a PDF over the size limit', async () => {
    const fresh = await createTemplate(owner, `Fresh ${Date.now()}`);
    const notPdf = await api()
      .post(`${base}/upload-pdf/${fresh.id}`)
      .set(bearer(owner))
      .attach('file', Buffer.from('<html>not a pdf</html>'), 'statement.pdf');
    expect(notPdf.status).toBe(400);
    expect(notPdf.body.message).toBe('Only PDF files are accepted');
    const second = await api()
      .post(`${base}/upload-pdf/${template.id}`)
      .set(bearer(owner))
      .attach('file', Buffer.from(await statementPdf(statementValues(1))), 'again.pdf');
    expect(second.status).toBe(409);
    expect(second.body.message).toBe(MESSAGES['template.image.has.pages']);
    const huge = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(21 * 1024 * 1024, 32)]);
    const tooLarge = await api()
      .post(`${base}/upload-pdf/${fresh.id}`)
      .set(bearer(owner))
      .attach('file', huge, 'huge.pdf');
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.message).toBe('The PDF is too large: at most 20 MB');
  });

  it("saves boxes: a page's boxes replaced at once, one box with the spec's defaults, a bad save keeping the old ones", async () => {
    const [first] = images;
    const before = (await api().get(`${base}/mapping/image/${first?.id}`).set(bearer(owner)).expect(200))
      .body as TemplateMappingDto[];
    expect(before.map((box) => box.mapping_label)).toEqual(STATEMENT_LAYOUT[0]?.map((spot) => spot.label));
    expect(before[0]).toMatchObject({ mapping_type: 'TEXT', anchor_text: 'Account holder:' });

    const bad = await api()
      .put(`${base}/mappings/image/${first?.id}`)
      .set(bearer(owner))
      .send({ mappings: [...templateBoxes(0), { ...templateBoxes(0)[0], mapping_type: 'DATE' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('The field type must be TEXT or CHECKBOX');
    const unnamed = await api()
      .put(`${base}/mappings/image/${first?.id}`)
      .set(bearer(owner))
      .send({ mappings: [{ ...templateBoxes(0)[0], mapping_label: ' ' }] });
    expect(unnamed.body.message).toBe('Every box needs a field name');
    const after = (await api().get(`${base}/mapping/image/${first?.id}`).set(bearer(owner)).expect(200)).body;
    expect(after).toEqual(before);

    const one = await api()
      .put(`${base}/mapping`)
      .set(bearer(owner))
      .send({ imageId: first?.id, x: 0.1, y: 0.9, w: 0.2, h: 0.02, pixel_width: 1131, pixel_height: 1600 })
      .expect(200);
    expect(one.body).toMatchObject({ mapping_type: 'TEXT', mapping_label: 'EMPTY', anchor_text: null });
    await api().delete(`${base}/mapping/${one.body.id}`).set(bearer(owner)).expect(200);
  });
});

describe('reading statements', () => {
  const variants: StatementVariant[] = ['printed', 'shifted', 'form', 'scanned'];

  it.each(variants)('reads every value of a %s statement', async (variant) => {
    const expected = statementValues(7);
    const response = await recognize(
      owner,
      template.id,
      await statementPdf(expected, variant),
      `${variant}.pdf`,
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const result = response.body as RecognitionResult;
    expect(result).toMatchObject({ file: `${variant}.pdf`, fileName: `${variant}.pdf`, pageCount: 2 });
    expect(result.text).toContain('Page 1');
    expect(result.text).toContain(`Account number: ${expected['Account number']}`);
    expect(result).toMatchObject({ matchesTemplate: true, mismatches: [], failedBoxes: [] });
    const read = await values(owner, [result.token]);
    expect(Object.fromEntries(read.map(({ label, value }) => [label, value]))).toEqual(expected);
    expect(read.map(({ page }) => page)).toEqual([1, 1, 1, 1, 1, 1, 2, 2, 2, 2]);
  });

  it('misreads a shifted statement with fixed boxes: the anchors are what reads it right', async () => {
    const fixed = await createTemplate(owner, `Fixed ${Date.now()}`);
    await api()
      .post(`${base}/upload-pdf/${fixed.id}`)
      .set(bearer(owner))
      .attach('file', Buffer.from(await statementPdf(statementValues(0))), 'sample.pdf')
      .expect(202);
    await drawBoxes(owner, await waitForPages(owner, fixed.id, 2), false);
    const expected = statementValues(8);
    const response = await recognize(
      owner,
      fixed.id,
      await statementPdf(expected, 'shifted'),
      'shifted.pdf',
    ).expect(200);
    const read = await values(owner, [response.body.token]);
    const misread = read.filter(({ page }) => page > 0);
    expect(misread.filter(({ label, value }) => value === expected[label]).length).toBeLessThan(
      misread.length / 2,
    );
    // ...and says so: the values do not look like the sample's.
    const result = response.body as RecognitionResult;
    expect(result.matchesTemplate).toBe(false);
    expect(result.mismatches.join(' ')).toContain("most boxes read text unlike the sample's");
    expect(result.failedBoxes.length).toBeGreaterThan(misread.length / 2);
    expect(read[0]).toMatchObject({ page: 0, label: 'Template' });
    expect(read[0]?.value).toMatch(/^Does not match the template: /u);
  });

  it('refuses a file that is not a PDF and a template that is not chosen or not the caller’s', async () => {
    const notPdf = await api()
      .post(`/api/statement-recognition/pdf-to-text/${template.id}`)
      .set(bearer(owner))
      .attach('file', Buffer.from('PK\u0003\u0004 a zip'), 'statement.pdf');
    expect(notPdf.status).toBe(400);
    expect(notPdf.body.message).toBe('Only PDF files are accepted');
    const noTemplate = await recognize(owner, 'undefined', await statementPdf(statementValues(1)), 'a.pdf');
    expect(noTemplate.status).toBe(400);
    expect(noTemplate.body.message).toBe('No template selected...');
    expect(
      (await recognize(stranger, template.id, await statementPdf(statementValues(1)), 'a.pdf')).status,
    ).toBe(404);
  });

  it('answers the CSV calls: quotes, commas and line breaks round-trip, 100 files at most', async () => {
    const tokens: string[] = [];
    const expected: StatementValues[] = [];
    for (const index of [3, 4, 5]) {
      expected.push(statementValues(index));
      const response = await recognize(
        owner,
        template.id,
        await statementPdf(statementValues(index)),
        `s${index}.pdf`,
      );
      tokens.push((response.body as RecognitionResult).token);
    }
    const single = await api()
      .post('/api/statement-recognition/text-to-csv')
      .set(bearer(owner))
      .send({ token: tokens[0] })
      .expect(200);
    expect(single.headers['content-type']).toContain('text/csv');
    expect(single.text.split('\r\n')[0]).toBe('filename,page,label,value');
    expect(single.text).toContain('"Paid ""in full"", ref 3"');
    expect(single.text).toContain(`"${(statementValues(3).Address ?? '').replace('\n', '__NL__')}"`);

    const consolidated = await api()
      .post('/api/statement-recognition/text-to-csv-consolidated')
      .set(bearer(owner))
      .send({ tokenList: tokens })
      .expect(200);
    const rows = parseRecognitionCsv(consolidated.text);
    expect(rows).toHaveLength(30);
    expect(rows.filter((row) => row.filename === 's4.pdf').map(({ label, value }) => [label, value])).toEqual(
      Object.entries(expected[1] ?? {}),
    );
    expect(rows.find((row) => row.label === 'Address' && row.filename === 's5.pdf')?.value).toBe(
      statementValues(5).Address,
    );

    const tooMany = await api()
      .post('/api/statement-recognition/text-to-csv-consolidated')
      .set(bearer(owner))
      .send({ tokenList: Array.from({ length: 101 }, (_, index) => `t${index}`) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe('Up to 100 PDF files at a time');
    // Another user's token is nobody's.
    await api()
      .post('/api/statement-recognition/text-to-csv')
      .set(bearer(stranger))
      .send({ token: tokens[0] })
      .expect(404);
    await api()
      .post('/api/statement-recognition/find')
      .set(bearer(stranger))
      .send({ tokenList: tokens })
      .expect(404);
  });

  it('keeps the order the files were given in the consolidated CSV and find, not the order they were read in', async () => {
    // Read at once (they finish in any order), then asked for in an order of the caller's own.
    const names = ['given-1.pdf', 'given-2.pdf', 'given-3.pdf'];
    const read = await Promise.all(
      names.map(async (name, index) => {
        const response = await recognize(
          owner,
          template.id,
          await statementPdf(statementValues(20 + index)),
          name,
        );
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        return (response.body as RecognitionResult).token;
      }),
    );
    const [first, second, third] = read as [string, string, string];
    for (const order of [
      [third, first, second],
      [second, third, first],
    ]) {
      const expectedFiles = order.map((token) => names[read.indexOf(token)]);
      const consolidated = await api()
        .post('/api/statement-recognition/text-to-csv-consolidated')
        .set(bearer(owner))
        .send({ tokenList: order })
        .expect(200);
      const files = [...new Set(parseRecognitionCsv(consolidated.text).map((row) => row.filename))];
      expect(files).toEqual(expectedFiles);
      const found = await values(owner, order);
      expect([...new Set(found.map((value) => value.filename))]).toEqual(expectedFiles);
    }
  });
});

describe('a real fillable form (IRS Form 1040, 2019: XFA with its AcroForm fields)', () => {
  const pdf = (name: string) => readFileSync(new URL(`../fixtures/pdfs/${name}`, import.meta.url));
  let form: TemplateDto;

  beforeAll(async () => {
    form = await createTemplate(owner, 'Form 1040');
    await api()
      .post(`${base}/upload-pdf/${form.id}`)
      .set(bearer(owner))
      .attach('file', pdf('irs-1040-2019-blank.pdf'), 'f1040.pdf')
      .expect(202);
    const [page1] = await waitForPages(owner, form.id, 2);
    const boxes = [
      ...FILLED_1040_VALUES.map(({ label, rect }) => ({ mapping_label: label, ...boxAround(rect) })),
      { mapping_label: 'Spouse first name', ...boxAround(EMPTY_1040_FIELD_RECT) },
      { mapping_label: 'Single', mapping_type: 'CHECKBOX', ...boxAround(FILLED_1040_CHECKBOX_RECT, 2) },
      {
        mapping_label: 'Married filing jointly',
        mapping_type: 'CHECKBOX',
        ...boxAround(EMPTY_1040_CHECKBOX_RECT, 2),
      },
    ];
    const picture = { pixel_width: page1?.pixelWidth, pixel_height: page1?.pixelHeight };
    await api()
      .put(`${base}/mappings/image/${page1?.id}`)
      .set(bearer(owner))
      .send({ mappings: boxes.map((box) => ({ ...box, ...picture })) })
      .expect(200);
  }, 120_000);

  it('reads what was typed into the form fields, not the printed form under them', async () => {
    const response = await recognize(owner, form.id, pdf('irs-1040-2019-filled.pdf'), 'filled.pdf');
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ pageCount: 2, matchesTemplate: true, failedBoxes: [] });
    const read = Object.fromEntries(
      (await values(owner, [response.body.token])).map(({ label, value }) => [label, value]),
    );
    expect(read).toEqual({
      ...Object.fromEntries(FILLED_1040_VALUES.map(({ label, value }) => [label, value])),
      // An empty field is empty: not the "▶" or label printed beside it.
      'Spouse first name': '',
      Single: 'checked',
      'Married filing jointly': 'unchecked',
    });
    expect(response.body.text).toContain('Spouse or child: foobar');
  });

  it('marks a PDF of another layout as not matching, in the result and the CSV, with the boxes that failed', async () => {
    // A statement read with the 1040's template: another page size and page count.
    const other = await recognize(owner, form.id, await statementPdf(statementValues(2)), 'statement.pdf');
    expect(other.status).toBe(200);
    const result = other.body as RecognitionResult;
    expect(result.matchesTemplate).toBe(false);
    expect(result.mismatches).toEqual([
      "page 1 is 595 × 842 pt, not the size of the sample's page (612 × 792 pt)",
    ]);
    // The 1040 read with the statement template: other size, and the anchor labels are not there.
    const reverse = await recognize(owner, template.id, pdf('irs-1040-2019-filled.pdf'), 'f1040.pdf');
    const reversed = reverse.body as RecognitionResult;
    expect(reversed.matchesTemplate).toBe(false);
    expect(reversed.mismatches.some((reason) => reason.startsWith('page 1 is 612 × 792 pt'))).toBe(true);
    expect(
      reversed.mismatches.some((reason) => reason.startsWith('the labels the boxes are anchored to')),
    ).toBe(true);
    expect(reversed.failedBoxes.length).toBeGreaterThan(0);
    expect(reversed.failedBoxes.every(({ problem }) => problem === 'anchor-missing')).toBe(true);
    // The consolidated CSV heads each such file with a record that says so; a matching file has none.
    const matching = await recognize(owner, template.id, await statementPdf(statementValues(3)), 'fine.pdf');
    const csv = await api()
      .post('/api/statement-recognition/text-to-csv-consolidated')
      .set(bearer(owner))
      .send({ tokenList: [matching.body.token, reversed.token] })
      .expect(200);
    const rows = parseRecognitionCsv(csv.text);
    expect(rows.filter((row) => row.label === 'Template').map((row) => row.filename)).toEqual(['f1040.pdf']);
    const marker = rows.find((row) => row.filename === 'f1040.pdf');
    expect(marker).toMatchObject({ page: 0, label: 'Template' });
    expect(marker?.value).toMatch(/^Does not match the template: page 1 is 612 × 792 pt/u);
    expect(marker?.value).toContain(`Account number (page 1: ${MESSAGES['recognition.box.anchor.missing']})`);
  });
});

describe('copy, delete and other users', () => {
  it('copies with new ids and the same pages and boxes, named (copy), (copy 2)', async () => {
    const copy = (await api().post(`${base}/copy/${template.id}`).set(bearer(owner)).expect(200))
      .body as TemplateDto;
    expect(copy).toMatchObject({ templateName: 'KYC (copy)', pageCount: 2, mappingCount: 10 });
    const again = (await api().post(`${base}/copy/${template.id}`).set(bearer(owner)).expect(200))
      .body as TemplateDto;
    expect(again.templateName).toBe('KYC (copy 2)');
    const copiedImages = (
      await api().get(`${base}/images/template/${copy.id}`).set(bearer(owner)).expect(200)
    ).body as TemplateImageDto[];
    expect(copiedImages.map((image) => image.id)).not.toEqual(images.map((image) => image.id));
    expect(copiedImages.map((image) => image.imageUuid)).not.toEqual(images.map((image) => image.imageUuid));
    for (const [index, image] of copiedImages.entries()) {
      const original = (await api().get(`${base}/mapping/image/${images[index]?.id}`).set(bearer(owner)))
        .body as TemplateMappingDto[];
      const copied = (await api().get(`${base}/mapping/image/${image.id}`).set(bearer(owner)))
        .body as TemplateMappingDto[];
      expect(copied.map(({ id: _id, ...box }) => box)).toEqual(original.map(({ id: _id, ...box }) => box));
      expect(copied.map((box) => box.id)).not.toEqual(original.map((box) => box.id));
    }
    // The copy reads statements on its own, and keeps its pages when the original goes.
    const response = await recognize(
      owner,
      copy.id,
      await statementPdf(statementValues(9)),
      'copy.pdf',
    ).expect(200);
    const fileCount = await db.storedFile.count({ where: { userId: owner.id } });
    await api().delete(`${base}/${again.id}`).set(bearer(owner)).expect(200);
    expect(await db.storedFile.count({ where: { userId: owner.id } })).toBe(fileCount - 2);
    await api()
      .get(copiedImages[0]?.url ?? '')
      .expect(200);
    expect((await values(owner, [response.body.token])).length).toBe(10);
  });

  it('deletes one page, then all pages, with their boxes', async () => {
    const copy = (await api().post(`${base}/copy/${template.id}`).set(bearer(owner)).expect(200))
      .body as TemplateDto;
    const pages = await waitForPages(owner, copy.id, 2);
    await api().delete(`${base}/image/${pages[0]?.id}`).set(bearer(owner)).expect(200);
    expect(await db.templateMapping.count({ where: { imageId: pages[0]?.id } })).toBe(0);
    await waitForPages(owner, copy.id, 1);
    await api().delete(`${base}/images/template/${copy.id}`).set(bearer(owner)).expect(200);
    await waitForPages(owner, copy.id, 0);
  });

  it('gives another user nothing of a template, its pages, boxes or results', async () => {
    const [first] = images;
    for (const call of [
      api().post(`${base}/`).set(bearer(stranger)).send({ id: template.id, templateName: 'Mine' }),
      api().delete(`${base}/${template.id}`).set(bearer(stranger)),
      api().post(`${base}/copy/${template.id}`).set(bearer(stranger)),
      api().get(`${base}/images/template/${template.id}`).set(bearer(stranger)),
      api().delete(`${base}/images/template/${template.id}`).set(bearer(stranger)),
      api().delete(`${base}/image/${first?.id}`).set(bearer(stranger)),
      api().get(`${base}/mapping/image/${first?.id}`).set(bearer(stranger)),
      api().put(`${base}/mappings/image/${first?.id}`).set(bearer(stranger)).send({ mappings: [] }),
      api()
        .put(`${base}/mapping`)
        .set(bearer(stranger))
        .send({ imageId: first?.id, x: 0, y: 0, w: 0.1, h: 0.1, pixel_width: 10, pixel_height: 10 }),
      api()
        .post(`${base}/upload-pdf/${template.id}`)
        .set(bearer(stranger))
        .attach('file', Buffer.from('%PDF-1.4'), 'x.pdf'),
    ]) {
      expect((await call).status).toBe(404);
    }
    expect((await api().get(`${base}/user`).set(bearer(stranger)).expect(200)).body).toEqual([]);
    expect(await db.templateMapping.count({ where: { imageId: first?.id } })).toBe(6);
  });

  it('keeps read results when a template is deleted', async () => {
    const doomed = (await api().post(`${base}/copy/${template.id}`).set(bearer(owner)).expect(200))
      .body as TemplateDto;
    const response = await recognize(
      owner,
      doomed.id,
      await statementPdf(statementValues(2)),
      'kept.pdf',
    ).expect(200);
    const deleted = await api().delete(`${base}/${doomed.id}`).set(bearer(owner)).expect(200);
    expect(deleted.body.message).toBe(MESSAGES['template.deleted']);
    await api().get(`${base}/images/template/${doomed.id}`).set(bearer(owner)).expect(404);
    expect(await values(owner, [response.body.token])).toHaveLength(10);
  });
});

describe('Redis', () => {
  it('keeps no recognition job in Redis without an expiry', async () => {
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    try {
      await expect
        .poll(
          async () =>
            (await keysWithoutExpiry(redis, inject('redisKeyPrefix'))).filter((key) =>
              key.includes('recognition'),
            ),
          { timeout: 15_000 },
        )
        .toEqual([]);
    } finally {
      redis.disconnect();
    }
  });
});

describe('issue 24: recognition CSVs and uploads as an attacker sends them', () => {
  /** A cell a spreadsheet would run as a formula (OWASP): starts with = + - @, tab or CR... */
  const FORMULA_START = /^[=+\-@\t\r]/u;
  /** ...unless it is a signed plain number, which a spreadsheet reads as a number. */
  const PLAIN_NUMBER = /^[+-]?\d[\d.,]*$/u;

  it('neutralises values, labels and file names a spreadsheet would run as formulas, in both CSVs (11)', async () => {
    const formulas = await createTemplate(owner, `Formulas ${Date.now()}`);
    await api()
      .post(`${base}/upload-pdf/${formulas.id}`)
      .set(bearer(owner))
      .attach('file', Buffer.from(await statementPdf(statementValues(0))), 'sample.pdf')
      .expect(202);
    const pages = await waitForPages(owner, formulas.id, STATEMENT_LAYOUT.length);
    for (const [index, image] of pages.entries()) {
      const boxes = templateBoxes(index).map((box) =>
        box.mapping_label === 'Note' ? { ...box, mapping_label: '@Note' } : box,
      );
      await api()
        .put(`${base}/mappings/image/${image.id}`)
        .set(bearer(owner))
        .send({ mappings: boxes })
        .expect(200);
    }
    const statement = {
      ...statementValues(2),
      'Account holder': '=1+2',
      'Account number': '+SUM(A1)',
      Balance: '-1,234.50',
      'Closing balance': '-2+3',
      Note: '@cmd',
    };
    const fileName = '=HYPERLINK(1).pdf';
    const read = await recognize(owner, formulas.id, await statementPdf(statement), fileName);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    const { token } = read.body as RecognitionResult;
    // What was read is kept as read: only the CSVs are written for spreadsheets.
    const found = await values(owner, [token]);
    expect(found.find((row) => row.label === 'Account holder')?.value).toBe('=1+2');

    const single = await api()
      .post('/api/statement-recognition/text-to-csv')
      .set(bearer(owner))
      .send({ token })
      .expect(200);
    const consolidated = await api()
      .post('/api/statement-recognition/text-to-csv-consolidated')
      .set(bearer(owner))
      .send({ tokenList: [token] })
      .expect(200);
    for (const csv of [single.text, consolidated.text]) {
      expect(csv).toContain(`"'=HYPERLINK(1).pdf",1,Account holder,"'=1+2"\r\n`);
      expect(csv).toContain(`,1,Account number,"'+SUM(A1)"\r\n`);
      // An amount stays a number.
      expect(csv).toContain(',1,Balance,"-1,234.50"\r\n');
      expect(csv).toContain(`,2,Closing balance,"'-2+3"\r\n`);
      expect(csv).toContain(`,2,"'@Note","'@cmd"\r\n`);
      const cells = parseCsvCells(csv).flat();
      expect(cells.filter((cell) => FORMULA_START.test(cell) && !PLAIN_NUMBER.test(cell))).toEqual([]);
    }
    // The table of consolidated results shows the cells as the file holds them.
    expect(parseRecognitionCsv(consolidated.text).find((row) => row.label === "'@Note")?.value).toBe("'@cmd");
  });

  it('answers 400 naming the file for a NUL or another control character in an uploaded file name, on both upload routes (12)', async () => {
    const refused = {
      code: 'VALIDATION_ERROR',
      field: 'file',
      message: MESSAGES['error.file.name.control'],
    };
    const pdf = Buffer.from(await statementPdf(statementValues(1)));
    const fresh = await createTemplate(owner, `Control ${Date.now()}`);
    for (const name of ['state\u0000ment.pdf', 'state\u001bment.pdf', 'state\u007fment.pdf']) {
      const sample = await api()
        .post(`${base}/upload-pdf/${fresh.id}`)
        .set(bearer(owner))
        .attach('file', pdf, name);
      expect([sample.status, sample.body], JSON.stringify(name)).toEqual([400, refused]);
      const statement = await recognize(owner, template.id, pdf, name);
      expect([statement.status, statement.body], JSON.stringify(name)).toEqual([400, refused]);
    }
    // The template took no sample: a clean name still does.
    await api()
      .post(`${base}/upload-pdf/${fresh.id}`)
      .set(bearer(owner))
      .attach('file', pdf, 'statement.pdf')
      .expect(202);
  });
});
