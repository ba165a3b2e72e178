-- Issue 23: a statement that does not match its template is marked, with the boxes that failed.
ALTER TABLE "RecognitionTemplate" ADD COLUMN "samplePageCount" INTEGER;
ALTER TABLE "TemplatePageImage" ADD COLUMN "pageWidth" DOUBLE PRECISION, ADD COLUMN "pageHeight" DOUBLE PRECISION;
ALTER TABLE "RecognitionJob" ADD COLUMN "mismatch" JSONB;
ALTER TABLE "RecognitionResult" ADD COLUMN "problem" VARCHAR(32);
