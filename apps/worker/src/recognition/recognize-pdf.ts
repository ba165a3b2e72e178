import { sql, type SqlRunner } from '@pagewright/db';
import { readStatement, statementText, type TemplatePageSpec } from '@pagewright/recognition';
import { TEMPLATE_PAGES_MAX, type RecognizePdfPayload, type RecognizePdfResult } from '@pagewright/shared';
import type { RecognitionDeps } from './render-template.js';

/**
 * The job, its template's pages and boxes (in reading order: top to bottom, then left to right),
 * in one statement: a statement is read in a few milliseconds, so round trips count. Only a job
 * still QUEUED starts: one its caller gave up (the API ended it ERROR) is dropped (issue 24).
 */
const loadStatement = (jobId: string) => sql`
  UPDATE "RecognitionJob" j SET status = 'PROCESSING', "updatedAt" = now()
   WHERE j.id = ${jobId}::uuid AND j.status = 'QUEUED'
  RETURNING j."userId", j."sourceFileId",
    (SELECT coalesce(json_agg(json_build_object(
              'pageNumber', i."pageNumber",
              'sampleText', i."textItems",
              'pageSize', CASE WHEN i."pageWidth" IS NULL THEN NULL
                          ELSE json_build_object('width', i."pageWidth", 'height', i."pageHeight") END,
              'pixelSize', json_build_object('width', i."pixelWidth", 'height', i."pixelHeight"),
              'boxes', (SELECT coalesce(json_agg(json_build_object(
                          'x', m.x, 'y', m.y, 'w', m.w, 'h', m.h, 'type', m."mappingType",
                          'label', m."mappingLabel", 'anchorText', m."anchorText") ORDER BY m.y, m.x), '[]'::json)
                          FROM "TemplateMapping" m WHERE m."imageId" = i.id)) ORDER BY i."pageNumber"), '[]'::json)
       FROM "TemplatePageImage" i WHERE i."templateId" = j."templateId") AS pages,
    (SELECT t."samplePageCount" FROM "RecognitionTemplate" t WHERE t.id = j."templateId") AS "samplePageCount",
    j."templateId" IS NOT NULL AS "hasTemplate"`;

/**
 * The job's end and its values in one statement, only while it is still PROCESSING: a job its
 * caller gave up meanwhile stays ERROR, without values (`ended` is 0).
 */
const storeStatement = (
  jobId: string,
  end: { results: string; text: string; pageCount: number; mismatch: string | null },
) => sql`
  WITH ended AS (
    UPDATE "RecognitionJob"
       SET status = 'DONE', text = ${end.text}, "pageCount" = ${end.pageCount}, mismatch = ${end.mismatch}::jsonb,
           progress = 100, "finishedAt" = now(), "updatedAt" = now()
     WHERE id = ${jobId}::uuid AND status = 'PROCESSING'
    RETURNING id
  ), stored AS (
    INSERT INTO "RecognitionResult" (id, "jobId", page, sequence, label, value, problem, "createdAt")
    SELECT gen_random_uuid(), ended.id, r.page, r.sequence, r.label, r.value, r.problem, now()
      FROM ended, json_to_recordset(${end.results}::json) AS r(page int, sequence int, label text, value text, problem text)
    RETURNING 1)
  SELECT (SELECT count(*) FROM ended)::int AS ended, (SELECT count(*) FROM stored)::int AS stored`;

const failStatement = (jobId: string, error: string) => sql`
  UPDATE "RecognitionJob" SET status = 'ERROR', error = ${error}, "finishedAt" = now(), "updatedAt" = now()
   WHERE id = ${jobId}::uuid AND status = 'PROCESSING'`;

/** Why a job was not read: it is gone, or it is no longer QUEUED (its caller gave up). */
export const GIVEN_UP_MESSAGE = 'the recognition job is gone or was given up';

interface LoadedJob {
  userId: string;
  sourceFileId: string | null;
  pages: TemplatePageSpec[];
  /** Null for templates made before the sample's page count was kept: the pages it has stand in. */
  samplePageCount: number | null;
  hasTemplate: boolean;
}

/**
 * One statement read with its template (POST /statement-recognition/pdf-to-text waits for this):
 * every box of every page, stored as the job's results with the text shown beside the file. The
 * uploaded PDF is not kept.
 */
export async function recognizePdf(
  payload: RecognizePdfPayload,
  deps: Pick<RecognitionDeps, 'files' | 'pdfPagesMax'> & { sql: SqlRunner },
): Promise<RecognizePdfResult> {
  const { files, sql: runner, pdfPagesMax } = deps;
  const id = payload.recognitionJobId;
  const [job] = await runner.query<LoadedJob>(loadStatement(id));
  if (!job) throw new Error(GIVEN_UP_MESSAGE);
  try {
    const source = job.sourceFileId ? await files.get(job.sourceFileId, job.userId) : null;
    if (!source || !job.hasTemplate) throw new Error('the file or its template is gone');
    const keptPages = Math.max(0, ...job.pages.map((page) => page.pageNumber));
    const samplePageCount = job.samplePageCount ?? keptPages;
    const { pageCount, values, mismatches } = await readStatement(
      source.content,
      job.pages,
      {
        pageCount: samplePageCount,
        // Before the count was kept, a sample longer than TEMPLATE_PAGES_MAX left only that many.
        isPageCountCapped: job.samplePageCount === null && keptPages >= TEMPLATE_PAGES_MAX,
      },
      pdfPagesMax,
    );
    const text = statementText(values);
    const results = values.map(({ page, label, value, problem }, sequence) => ({
      page,
      sequence,
      label,
      value,
      problem,
    }));
    const mismatch = mismatches.length > 0 ? JSON.stringify(mismatches) : null;
    const [stored] = await runner.query<{ ended: number }>(
      storeStatement(id, { results: JSON.stringify(results), text, pageCount, mismatch }),
    );
    if (!stored?.ended) throw new Error(GIVEN_UP_MESSAGE);
    const failedBoxes = values.flatMap(({ page, label, problem }) =>
      problem ? [{ page, label, problem }] : [],
    );
    return { pageCount, text, mismatches, failedBoxes };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await runner.query(failStatement(id, reason.slice(0, 1000)));
    throw error;
  } finally {
    if (job.sourceFileId) await files.delete([job.sourceFileId]);
  }
}
