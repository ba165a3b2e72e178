import { createHash } from 'node:crypto';
import type { Prisma, PrismaClient } from './generated/client.js';

/** Who owns a file and how it is served. */
export interface FileMeta {
  /** The owner: every read is scoped to it. */
  userId: string;
  /** Shown as the download name (cut to 255 characters). */
  name: string;
  mimeType: string;
}

/** A stored file as it is served. */
export interface FileContent {
  name: string;
  mimeType: string;
  /** Bytes. */
  size: number;
  content: Buffer;
}

/**
 * Where every file the product keeps goes: step pictures, downloads, ask pictures, later
 * attachments and PDFs. Any API or worker process reads what any other one stored.
 *
 * Every file has a `StoredFile` row in Postgres whatever holds its bytes: its id is what steps,
 * actions and asks point at, and the row carries the owner, name, type, size and SHA-256. A store
 * decides only where the bytes live: the Postgres store keeps them in the row's `content` column;
 * an S3-compatible store would keep them in a bucket under the row's `storageKey` and leave
 * `content` null.
 *
 * `put` and `delete` take the transaction the caller is in (a step and its pictures are written
 * in one), so the row appears or goes with the rows that point at it. A store outside Postgres
 * cannot join that transaction: it uploads before inserting the row and removes the object after
 * the row is gone, so a rolled-back `put`, a `delete` whose transaction fails, or a row removed
 * by a cascade (a deleted user) leaves an object without a row, which a periodic sweep of keys
 * without a row removes; never a row without its bytes.
 *
 * Reads are scoped to the owner: `get` and `has` answer null/false for another user's file, as
 * for a missing one. Files are capped (a download at 25 MB), so `get` answers the whole content;
 * a store that serves larger files would add a streaming read beside it.
 */
export interface FileStorage {
  /** Stores the bytes and answers the new file's id. */
  put(content: Buffer, meta: FileMeta, tx?: Prisma.TransactionClient): Promise<string>;
  /** The owner's file with its bytes; null when missing, not theirs, or without bytes. */
  get(id: string, ownerId: string): Promise<FileContent | null>;
  /** Whether the owner's file exists with its bytes (without reading them). */
  has(id: string, ownerId: string): Promise<boolean>;
  /** Removes the files (rows and bytes); unknown ids are ignored. */
  delete(ids: readonly string[], tx?: Prisma.TransactionClient): Promise<void>;
}

/** The default store: the bytes in the `StoredFile` row itself (`content`, bytea). */
export function createPostgresFileStorage(db: PrismaClient): FileStorage {
  return {
    async put(content, meta, tx) {
      const stored = await (tx ?? db).storedFile.create({
        data: {
          userId: meta.userId,
          name: meta.name.slice(0, 255),
          mimeType: meta.mimeType.slice(0, 255),
          size: content.length,
          content: new Uint8Array(content),
          sha256: createHash('sha256').update(content).digest('hex'),
        },
        select: { id: true },
      });
      return stored.id;
    },

    async get(id, ownerId) {
      const file = await db.storedFile.findFirst({
        where: { id, userId: ownerId },
        select: { name: true, mimeType: true, size: true, content: true },
      });
      if (!file?.content) return null;
      const content = Buffer.from(file.content.buffer, file.content.byteOffset, file.content.byteLength);
      return { name: file.name, mimeType: file.mimeType, size: file.size, content };
    },

    async has(id, ownerId) {
      return (await db.storedFile.count({ where: { id, userId: ownerId, content: { not: null } } })) > 0;
    },

    async delete(ids, tx) {
      if (ids.length === 0) return;
      await (tx ?? db).storedFile.deleteMany({ where: { id: { in: [...ids] } } });
    },
  };
}

/**
 * The store every process uses. Postgres today; a deployment choosing another store (an
 * S3-compatible bucket) is decided here, once, for the API and the worker alike.
 */
export function createFileStorage(db: PrismaClient): FileStorage {
  return createPostgresFileStorage(db);
}
