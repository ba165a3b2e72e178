-- Inputs of an extractor and the values a run was started with (issue 26, item 3).
ALTER TABLE "Extractor" ADD COLUMN "inputs" JSONB NOT NULL DEFAULT '[]';
ALTER TABLE "Run" ADD COLUMN "inputs" JSONB NOT NULL DEFAULT '{}';
