-- Statement recognition (issue 15): anchors (a box read relative to its label) and page counts.
-- AlterTable
ALTER TABLE "RecognitionJob" ADD COLUMN     "pageCount" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "TemplateMapping" ADD COLUMN     "anchorText" VARCHAR(128);

-- AlterTable
ALTER TABLE "TemplatePageImage" ADD COLUMN     "textItems" JSONB;


