import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import request from 'supertest';
import { Redis } from 'ioredis';
import { createPrismaClient } from '@pagewright/db';
import {
  MESSAGES,
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
    await api()
      .get((first?.url ?? '').replace(/signature=./u, 'signature=x'))
      .expect(404);
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
    expect(read.filter(({ label, value }) => value === expected[label]).length).toBeLessThan(read.length / 2);
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
