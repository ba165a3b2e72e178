-- Statement recognition (issue 15): anchors (a box read relative to its label), page counts, value order.
-- DropIndex
DROP INDEX "RecognitionResult_jobId_page_idx";

-- AlterTable
ALTER TABLE "RecognitionJob" ADD COLUMN     "pageCount" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "RecognitionResult" ADD COLUMN     "sequence" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "TemplateMapping" ADD COLUMN     "anchorText" VARCHAR(128);

-- AlterTable
ALTER TABLE "TemplatePageImage" ADD COLUMN     "textItems" JSONB;

-- CreateIndex
CREATE INDEX "RecognitionResult_jobId_page_sequence_idx" ON "RecognitionResult"("jobId", "page", "sequence");


