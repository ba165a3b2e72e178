import { readStatement, statementText, type PageText, type TemplatePageSpec } from '@pagewright/recognition';
import type { RecognizePdfPayload } from '@pagewright/shared';
import type { RecognitionDeps } from './render-template.js';

/**
 * One statement read with its template (POST /statement-recognition/pdf-to-text waits for this):
 * every box of every page, in reading order (top to bottom, then left to right), stored as the
 * job's results with the text shown beside the file. The uploaded PDF is not kept.
 */
export async function recognizePdf(
  payload: RecognizePdfPayload,
  deps: Pick<RecognitionDeps, 'db' | 'files'>,
): Promise<{ pageCount: number; text: string }> {
  const { db, files } = deps;
  const job = await db.recognitionJob.update({
    where: { id: payload.recognitionJobId },
    data: { status: 'PROCESSING' },
    select: {
      id: true,
      userId: true,
      sourceFileId: true,
      template: {
        select: {
          images: {
            orderBy: { pageNumber: 'asc' },
            select: {
              pageNumber: true,
              textItems: true,
              mappings: {
                orderBy: [{ y: 'asc' }, { x: 'asc' }],
                select: {
                  x: true,
                  y: true,
                  w: true,
                  h: true,
                  mappingType: true,
                  mappingLabel: true,
                  anchorText: true,
                },
              },
            },
          },
        },
      },
    },
  });
  try {
    const source = job.sourceFileId ? await files.get(job.sourceFileId, job.userId) : null;
    if (!source || !job.template) throw new Error('the file or its template is gone');
    const pages: TemplatePageSpec[] = job.template.images.map((image) => ({
      pageNumber: image.pageNumber,
      sampleText: Array.isArray(image.textItems) ? (image.textItems as unknown as PageText[]) : null,
      boxes: image.mappings.map((mapping) => ({
        x: mapping.x,
        y: mapping.y,
        w: mapping.w,
        h: mapping.h,
        type: mapping.mappingType,
        label: mapping.mappingLabel,
        anchorText: mapping.anchorText,
      })),
    }));
    const { pageCount, values } = await readStatement(source.content, pages);
    const text = statementText(values);
    await db.$transaction([
      db.recognitionResult.createMany({
        data: values.map((value, sequence) => ({
          jobId: job.id,
          page: value.page,
          sequence,
          label: value.label,
          value: value.value,
        })),
      }),
      db.recognitionJob.update({
        where: { id: job.id },
        data: { status: 'DONE', text, pageCount, progress: 100, finishedAt: new Date() },
      }),
    ]);
    return { pageCount, text };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await db.recognitionJob.update({
      where: { id: job.id },
      data: { status: 'ERROR', error: reason.slice(0, 1000), finishedAt: new Date() },
    });
    throw error;
  } finally {
    if (job.sourceFileId) await files.delete([job.sourceFileId]);
  }
}
