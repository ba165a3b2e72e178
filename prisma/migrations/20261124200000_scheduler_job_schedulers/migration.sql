-- Schedulers run through BullMQ job schedulers (issue 13): the polling columns go (nextRunAt,
-- lastRunAt and isEnabled were for a home-made timer loop), zones default to UTC, a scheduled
-- extractor cannot be deleted, and each firing is recorded once per (scheduler, extractor, time).
-- CreateEnum
CREATE TYPE "SchedulerFiringOutcome" AS ENUM ('STARTED', 'SKIPPED');

-- DropForeignKey
ALTER TABLE "SchedulerExtractor" DROP CONSTRAINT "SchedulerExtractor_extractorId_fkey";

-- DropIndex
DROP INDEX "Scheduler_isEnabled_nextRunAt_idx";

-- AlterTable
ALTER TABLE "Scheduler" DROP COLUMN "isEnabled",
DROP COLUMN "lastRunAt",
DROP COLUMN "nextRunAt",
ALTER COLUMN "timezone" SET DEFAULT 'UTC';

-- CreateTable
CREATE TABLE "SchedulerFiring" (
    "id" UUID NOT NULL,
    "schedulerId" UUID NOT NULL,
    "extractorId" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "scheduledFor" TIMESTAMP(3) NOT NULL,
    "outcome" "SchedulerFiringOutcome" NOT NULL,
    "skipReason" VARCHAR(256),
    "runId" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SchedulerFiring_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "SchedulerFiring_runId_key" ON "SchedulerFiring"("runId");

-- CreateIndex
CREATE INDEX "SchedulerFiring_schedulerId_scheduledFor_idx" ON "SchedulerFiring"("schedulerId", "scheduledFor" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "SchedulerFiring_schedulerId_extractorId_scheduledFor_key" ON "SchedulerFiring"("schedulerId", "extractorId", "scheduledFor");

-- AddForeignKey
ALTER TABLE "SchedulerExtractor" ADD CONSTRAINT "SchedulerExtractor_extractorId_fkey" FOREIGN KEY ("extractorId") REFERENCES "Extractor"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SchedulerFiring" ADD CONSTRAINT "SchedulerFiring_schedulerId_fkey" FOREIGN KEY ("schedulerId") REFERENCES "Scheduler"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SchedulerFiring" ADD CONSTRAINT "SchedulerFiring_extractorId_fkey" FOREIGN KEY ("extractorId") REFERENCES "Extractor"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SchedulerFiring" ADD CONSTRAINT "SchedulerFiring_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE SET NULL ON UPDATE CASCADE;


