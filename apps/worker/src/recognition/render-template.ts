import type { FileStorage, PrismaClient } from '@pagewright/db';
import { renderSample } from '@pagewright/recognition';
import {
  TEMPLATE_IMAGE_LONG_EDGE,
  TEMPLATE_PAGES_MAX,
  type LiveEvent,
  type RenderTemplatePayload,
} from '@pagewright/shared';

export interface RecognitionDeps {
  db: PrismaClient;
  files: FileStorage;
  /** Tells the user's browsers (the template modal shows the pages as they come). */
  publish: (userId: string, event: LiveEvent) => Promise<void>;
  /** A PDF of more pages than this is refused (RECOGNITION_PDF_PAGES_MAX). */
  pdfPagesMax: number;
}

/**
 * A template's sample PDF into its page images (JPEG, longest edge 1600 px) and the pages' text
 * layers (where anchor labels are), one page at a time: each page is stored as soon as it is
 * drawn and announced, so the modal fills in while a long PDF renders. The uploaded PDF itself is
 * not kept.
 */
export async function renderTemplate(payload: RenderTemplatePayload, deps: RecognitionDeps): Promise<number> {
  const { db, files, publish, pdfPagesMax } = deps;
  const { userId, templateId, fileId } = payload;
  const sample = await files.get(fileId, userId);
  if (!sample) return 0;
  const baseName = sample.name.replace(/\.pdf$/iu, '').slice(0, 200);
  try {
    const { renderedPages: pageCount, documentPages } = await renderSample(sample.content, {
      longEdge: TEMPLATE_IMAGE_LONG_EDGE,
      maxPages: TEMPLATE_PAGES_MAX,
      pagesMax: pdfPagesMax,
      onPage: async (page, pages) => {
        await db.$transaction(async (tx) => {
          const imageFileId = await files.put(
            page.jpeg,
            { userId, name: `${baseName}-page-${page.pageNumber}.jpg`, mimeType: 'image/jpeg' },
            tx,
          );
          await tx.templatePageImage.create({
            data: {
              templateId,
              name: `${baseName} page ${page.pageNumber}`,
              pageNumber: page.pageNumber,
              pixelWidth: page.width,
              pixelHeight: page.height,
              pageWidth: page.pageSize.width,
              pageHeight: page.pageSize.height,
              textItems: page.texts.map(({ str, x, y, w, h }) => ({ str, x, y, w, h })),
              fileId: imageFileId,
            },
          });
        });
        await publish(userId, {
          type: 'template-render',
          templateId,
          page: page.pageNumber,
          pageCount: pages,
          isDone: false,
        });
      },
    });
    await db.recognitionTemplate.update({
      where: { id: templateId },
      data: { samplePageCount: documentPages },
    });
    await publish(userId, { type: 'template-render', templateId, page: pageCount, pageCount, isDone: true });
    return pageCount;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await publish(userId, {
      type: 'template-render',
      templateId,
      page: 0,
      pageCount: 0,
      isDone: true,
      error: reason.slice(0, 300),
    }).catch(() => undefined);
    throw error;
  } finally {
    await files.delete([fileId]);
  }
}
