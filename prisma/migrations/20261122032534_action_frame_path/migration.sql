-- AlterTable
ALTER TABLE "ExtractorAction" ADD COLUMN     "framePath" JSONB NOT NULL DEFAULT '[]';
