import type { FileStorage, Prisma, PrismaClient } from '@pagewright/db';
import type { TemplateBox } from '@pagewright/shared';

const templateSelect = {
  id: true,
  templateName: true,
  images: { select: { _count: { select: { mappings: true } } } },
} satisfies Prisma.RecognitionTemplateSelect;
export type TemplateRow = Prisma.RecognitionTemplateGetPayload<{ select: typeof templateSelect }>;

const imageSelect = {
  id: true,
  imageUuid: true,
  name: true,
  pageNumber: true,
  pixelWidth: true,
  pixelHeight: true,
} satisfies Prisma.TemplatePageImageSelect;
export type TemplateImageRow = Prisma.TemplatePageImageGetPayload<{ select: typeof imageSelect }>;

const mappingSelect = {
  id: true,
  x: true,
  y: true,
  w: true,
  h: true,
  mappingType: true,
  mappingLabel: true,
  anchorText: true,
} satisfies Prisma.TemplateMappingSelect;
export type TemplateMappingRow = Prisma.TemplateMappingGetPayload<{ select: typeof mappingSelect }>;

type Box = Required<Omit<TemplateBox, 'anchor_text'>> & { anchor_text?: string | null | undefined };

function mappingData(box: Box) {
  return {
    x: box.x,
    y: box.y,
    w: box.w,
    h: box.h,
    pixelWidth: box.pixel_width,
    pixelHeight: box.pixel_height,
    mappingType: box.mapping_type,
    mappingLabel: box.mapping_label,
    anchorText: box.anchor_text ?? null,
  };
}

/** Templates, their page images and boxes; every read and change scoped to the owner. */
export function createTemplateRepository(db: PrismaClient, files: FileStorage) {
  const ownedImage = (userId: string, imageId: string) =>
    db.templatePageImage.findFirst({ where: { id: imageId, template: { userId } }, select: { id: true } });

  return {
    list: (userId: string) =>
      db.recognitionTemplate.findMany({
        where: { userId },
        orderBy: { templateName: 'asc' },
        select: templateSelect,
      }),

    findOwned: (userId: string, id: string) =>
      db.recognitionTemplate.findFirst({ where: { id, userId }, select: templateSelect }),

    names: async (userId: string) =>
      (await db.recognitionTemplate.findMany({ where: { userId }, select: { templateName: true } })).map(
        ({ templateName }) => templateName,
      ),

    create: (userId: string, templateName: string) =>
      db.recognitionTemplate.create({ data: { userId, templateName }, select: templateSelect }),

    rename: async (userId: string, id: string, templateName: string) => {
      const { count } = await db.recognitionTemplate.updateMany({
        where: { id, userId },
        data: { templateName },
      });
      return count > 0;
    },

    /** The template with its pages and boxes; its image files go with it. */
    delete: (userId: string, id: string) =>
      db.$transaction(async (tx) => {
        const template = await tx.recognitionTemplate.findFirst({
          where: { id, userId },
          select: { images: { select: { fileId: true } } },
        });
        if (!template) return false;
        await tx.recognitionTemplate.delete({ where: { id } });
        await files.delete(
          template.images.map(({ fileId }) => fileId),
          tx,
        );
        return true;
      }),

    /** A new template named `templateName` with copies of the pages (new ids, files copied) and boxes. */
    copy: (userId: string, id: string, templateName: string) =>
      db.$transaction(async (tx) => {
        const source = await tx.recognitionTemplate.findFirst({
          where: { id, userId },
          select: {
            images: {
              orderBy: { pageNumber: 'asc' },
              select: {
                name: true,
                pageNumber: true,
                pixelWidth: true,
                pixelHeight: true,
                textItems: true,
                fileId: true,
                mappings: { select: { ...mappingSelect, pixelWidth: true, pixelHeight: true } },
              },
            },
          },
        });
        if (!source) return null;
        const copy = await tx.recognitionTemplate.create({
          data: { userId, templateName },
          select: { id: true },
        });
        for (const image of source.images) {
          // The file's row and bytes copied inside PostgreSQL (no round trip through the API),
          // through Prisma's own connection, so the copy is part of this transaction.
          const [copied] = await tx.$queryRaw<{ id: string }[]>`
            INSERT INTO "StoredFile" (id, "userId", name, "mimeType", size, content, sha256, "createdAt")
            SELECT gen_random_uuid(), "userId", name, "mimeType", size, content, sha256, now()
              FROM "StoredFile" WHERE id = ${image.fileId}::uuid
            RETURNING id`;
          if (!copied) throw new Error('a page image file is missing');
          await tx.templatePageImage.create({
            data: {
              templateId: copy.id,
              name: image.name,
              pageNumber: image.pageNumber,
              pixelWidth: image.pixelWidth,
              pixelHeight: image.pixelHeight,
              textItems: image.textItems ?? undefined,
              fileId: copied.id,
              mappings: {
                create: image.mappings.map(({ id: _id, ...mapping }) => mapping),
              },
            },
          });
        }
        return tx.recognitionTemplate.findUniqueOrThrow({ where: { id: copy.id }, select: templateSelect });
      }),

    images: (userId: string, templateId: string) =>
      db.templatePageImage.findMany({
        where: { templateId, template: { userId } },
        orderBy: { pageNumber: 'asc' },
        select: imageSelect,
      }),

    /** An image's bytes by its public handle, for its owner. */
    async imageFile(imageUuid: string) {
      const image = await db.templatePageImage.findUnique({
        where: { imageUuid },
        select: { fileId: true, template: { select: { userId: true } } },
      });
      return image ? files.get(image.fileId, image.template.userId) : null;
    },

    /** Removes the given pages (all of the template's when `imageId` is null) with their boxes and files. */
    deleteImages: (userId: string, templateId: string | null, imageId: string | null) =>
      db.$transaction(async (tx) => {
        const images = await tx.templatePageImage.findMany({
          where: {
            template: { userId },
            ...(templateId ? { templateId } : {}),
            ...(imageId ? { id: imageId } : {}),
          },
          select: { id: true, fileId: true },
        });
        if (images.length === 0) return 0;
        await tx.templatePageImage.deleteMany({ where: { id: { in: images.map(({ id }) => id) } } });
        await files.delete(
          images.map(({ fileId }) => fileId),
          tx,
        );
        return images.length;
      }),

    hasImages: async (templateId: string) =>
      (await db.templatePageImage.count({ where: { templateId } })) > 0,

    storeSample: (userId: string, name: string, content: Buffer) =>
      files.put(content, { userId, name, mimeType: 'application/pdf' }),

    mappings: (userId: string, imageId: string) =>
      db.templateMapping.findMany({
        where: { imageId, image: { template: { userId } } },
        orderBy: [{ y: 'asc' }, { x: 'asc' }],
        select: mappingSelect,
      }),

    ownedImage,

    addMapping: (imageId: string, box: Box) =>
      db.templateMapping.create({ data: { imageId, ...mappingData(box) }, select: mappingSelect }),

    /** The page's boxes replaced by these, in one transaction (a failed save keeps the old ones). */
    replaceMappings: (imageId: string, boxes: Box[]) =>
      db.$transaction(async (tx) => {
        await tx.templateMapping.deleteMany({ where: { imageId } });
        await tx.templateMapping.createMany({ data: boxes.map((box) => ({ imageId, ...mappingData(box) })) });
        return tx.templateMapping.findMany({
          where: { imageId },
          orderBy: [{ y: 'asc' }, { x: 'asc' }],
          select: mappingSelect,
        });
      }),

    deleteMapping: async (userId: string, id: string) => {
      const { count } = await db.templateMapping.deleteMany({
        where: { id, image: { template: { userId } } },
      });
      return count > 0;
    },
  };
}
export type TemplateRepository = ReturnType<typeof createTemplateRepository>;
