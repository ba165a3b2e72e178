-- Issue 26 (item 4): bulk runs, one extractor over many inputs, and their items.
CREATE TYPE "BulkRunSource" AS ENUM ('CSV', 'LINES', 'DATASET', 'QUERY');

CREATE TYPE "BulkRunStatus" AS ENUM ('RUNNING', 'FINISHED', 'CANCELLED');

CREATE TYPE "BulkRunItemStatus" AS ENUM ('PENDING', 'STARTING', 'RUNNING', 'SUCCESS', 'ERROR', 'STOPPED', 'CANCELLED');

CREATE TABLE "BulkRun" (
    "id" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "extractorId" UUID NOT NULL,
    "source" "BulkRunSource" NOT NULL,
    "sourceName" VARCHAR(255) NOT NULL,
    "status" "BulkRunStatus" NOT NULL DEFAULT 'RUNNING',
    "total" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "BulkRun_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "BulkRunItem" (
    "id" UUID NOT NULL,
    "bulkRunId" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "inputs" JSONB NOT NULL,
    "status" "BulkRunItemStatus" NOT NULL DEFAULT 'PENDING',
    "runId" UUID,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "errorMessage" VARCHAR(1024),
    "claimedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "BulkRunItem_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "BulkRun_userId_createdAt_idx" ON "BulkRun"("userId", "createdAt");

CREATE INDEX "BulkRun_extractorId_createdAt_idx" ON "BulkRun"("extractorId", "createdAt");

CREATE INDEX "BulkRun_status_idx" ON "BulkRun"("status");

CREATE UNIQUE INDEX "BulkRunItem_runId_key" ON "BulkRunItem"("runId");

CREATE UNIQUE INDEX "BulkRunItem_bulkRunId_position_key" ON "BulkRunItem"("bulkRunId", "position");

CREATE INDEX "BulkRunItem_bulkRunId_status_position_idx" ON "BulkRunItem"("bulkRunId", "status", "position");

CREATE INDEX "BulkRunItem_userId_status_idx" ON "BulkRunItem"("userId", "status");

ALTER TABLE "BulkRun" ADD CONSTRAINT "BulkRun_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "BulkRun" ADD CONSTRAINT "BulkRun_extractorId_fkey" FOREIGN KEY ("extractorId") REFERENCES "Extractor"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "BulkRunItem" ADD CONSTRAINT "BulkRunItem_bulkRunId_fkey" FOREIGN KEY ("bulkRunId") REFERENCES "BulkRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "BulkRunItem" ADD CONSTRAINT "BulkRunItem_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE SET NULL ON UPDATE CASCADE;
