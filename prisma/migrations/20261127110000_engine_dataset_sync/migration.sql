-- Issue 25 (engine datasets): the import state of an engine dataset's rows, shown in the list.
-- Each engine dataset's table (dataset_rows.ds_<id>) gets its own sync columns when it is created.
ALTER TABLE "Dataset" ADD COLUMN "engineSyncPending" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "engineSyncRejected" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "engineSyncError" VARCHAR(2000),
ADD COLUMN "engineSyncedAt" TIMESTAMP(3);

