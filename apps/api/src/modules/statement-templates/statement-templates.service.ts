import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  MESSAGES,
  NAME_MAX_LENGTH,
  RECOGNITION_JOBS,
  addJob,
  looksLikePdf,
  type TemplateDto,
  type TemplateImageDto,
  type TemplateMappingDto,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import type { RecognitionQueue } from '../../plugins/queues.js';
import type {
  TemplateImageRow,
  TemplateMappingRow,
  TemplateRepository,
  TemplateRow,
} from './statement-templates.repository.js';

function toDto(row: TemplateRow): TemplateDto {
  return {
    id: row.id,
    templateName: row.templateName,
    pageCount: row.images.length,
    mappingCount: row.images.reduce((sum, image) => sum + image._count.mappings, 0),
  };
}

function toMappingDto(row: TemplateMappingRow): TemplateMappingDto {
  return {
    id: row.id,
    x: row.x,
    y: row.y,
    w: row.w,
    h: row.h,
    mapping_type: row.mappingType,
    mapping_label: row.mappingLabel,
    anchor_text: row.anchorText,
  };
}

/** "Name (copy)", then "Name (copy 2)", … — the first one free, cut to fit 128 characters. */
export function copyName(name: string, taken: ReadonlySet<string>): string {
  for (let index = 1; ; index += 1) {
    const suffix = index === 1 ? ' (copy)' : ` (copy ${index})`;
    const candidate = `${name.slice(0, NAME_MAX_LENGTH - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** An uploaded file: its name and bytes, or why it could not be read. */
export interface UploadedFile {
  name: string;
  content: Buffer;
}

type Box = Parameters<TemplateRepository['addMapping']>[1];

/**
 * Templates (data spec §2, §7): a sample PDF's pages as images, boxes drawn on them. Page images
 * reach `<img>` tags through signed addresses that work for a few minutes (an `<img>` cannot send
 * the bearer token; a bare imageUuid never opens an image).
 */
export function createTemplateService(deps: {
  templates: TemplateRepository;
  queue: RecognitionQueue;
  imageUrlSecret: string;
  imageUrlTtlSeconds: number;
  /** The job's BullMQ priority from its user's jobs in flight (fair shares, issue 24). */
  priorityOf: (userId: string, jobId: string) => Promise<number>;
}) {
  const { templates, queue, imageUrlSecret, imageUrlTtlSeconds, priorityOf } = deps;
  const signature = (imageUuid: string, expires: number) =>
    createHmac('sha256', imageUrlSecret).update(`template-image:${imageUuid}:${expires}`).digest('base64url');

  function imageDto(image: TemplateImageRow, now: number): TemplateImageDto {
    const expires = Math.floor(now / 1000) + imageUrlTtlSeconds;
    const query = `expires=${expires}&signature=${signature(image.imageUuid, expires)}`;
    return { ...image, url: `/api/statement-recognition-template/image/uuid/${image.imageUuid}?${query}` };
  }

  async function owned(userId: string, id: string): Promise<TemplateRow> {
    const template = await templates.findOwned(userId, id);
    if (!template) throw AppError.notFound(MESSAGES['template.not.found']);
    return template;
  }

  async function ownedImage(userId: string, imageId: string): Promise<void> {
    if (!(await templates.ownedImage(userId, imageId)))
      throw AppError.notFound(MESSAGES['template.image.not.found']);
  }

  const unique = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error))
        throw new AppError('CONFLICT', MESSAGES['template.name.unique'], 'templateName');
      throw error;
    }
  };

  return {
    list: async (userId: string) => (await templates.list(userId)).map(toDto),

    create: async (userId: string, templateName: string) =>
      toDto(await unique(() => templates.create(userId, templateName))),

    async rename(userId: string, id: string, templateName: string) {
      const isRenamed = await unique(() => templates.rename(userId, id, templateName));
      if (!isRenamed) throw AppError.notFound(MESSAGES['template.not.found']);
      return toDto(await owned(userId, id));
    },

    async delete(userId: string, id: string) {
      if (!(await templates.delete(userId, id))) throw AppError.notFound(MESSAGES['template.not.found']);
    },

    async copy(userId: string, id: string) {
      const source = await owned(userId, id);
      const name = copyName(source.templateName, new Set(await templates.names(userId)));
      const copy = await unique(() => templates.copy(userId, id, name));
      if (!copy) throw AppError.notFound(MESSAGES['template.not.found']);
      return toDto(copy);
    },

    async images(userId: string, templateId: string) {
      await owned(userId, templateId);
      const now = Date.now();
      return (await templates.images(userId, templateId)).map((image) => imageDto(image, now));
    },

    /** The bytes behind a signed image address; anything else is 404. */
    async image(imageUuid: string, expires: number, given: string) {
      const expected = Buffer.from(signature(imageUuid, expires));
      const presented = Buffer.from(given);
      const isValid =
        expires * 1000 > Date.now() &&
        expected.length === presented.length &&
        timingSafeEqual(expected, presented);
      const file = isValid ? await templates.imageFile(imageUuid) : null;
      if (!file) throw AppError.notFound(MESSAGES['template.image.not.found']);
      return file;
    },

    /** Stores the sample PDF and queues its rendering; the pages come in as they are drawn. */
    async uploadPdf(userId: string, templateId: string, file: UploadedFile) {
      await owned(userId, templateId);
      if (!looksLikePdf(file.content)) throw AppError.validation(MESSAGES['template.image.not.pdf'], 'file');
      if (await templates.hasImages(templateId)) {
        throw new AppError('CONFLICT', MESSAGES['template.image.has.pages'], 'file');
      }
      const fileId = await templates.storeSample(userId, file.name, file.content);
      const jobId = `render-${fileId}`;
      await addJob(
        queue,
        RECOGNITION_JOBS.renderTemplate,
        { userId, templateId, fileId },
        { jobId, priority: await priorityOf(userId, jobId) },
      );
      return { message: MESSAGES['template.image.uploaded'] };
    },

    async deleteImage(userId: string, imageId: string) {
      if ((await templates.deleteImages(userId, null, imageId)) === 0) {
        throw AppError.notFound(MESSAGES['template.image.not.found']);
      }
    },

    async deleteImages(userId: string, templateId: string) {
      await owned(userId, templateId);
      await templates.deleteImages(userId, templateId, null);
    },

    async mappings(userId: string, imageId: string) {
      await ownedImage(userId, imageId);
      return (await templates.mappings(userId, imageId)).map(toMappingDto);
    },

    async addMapping(userId: string, imageId: string, box: Box) {
      await ownedImage(userId, imageId);
      return toMappingDto(await templates.addMapping(imageId, box));
    },

    async replaceMappings(userId: string, imageId: string, boxes: Box[]) {
      await ownedImage(userId, imageId);
      return (await templates.replaceMappings(imageId, boxes)).map(toMappingDto);
    },

    async deleteMapping(userId: string, id: string) {
      if (!(await templates.deleteMapping(userId, id)))
        throw AppError.notFound(MESSAGES['template.not.found']);
    },
  };
}
export type TemplateService = ReturnType<typeof createTemplateService>;
