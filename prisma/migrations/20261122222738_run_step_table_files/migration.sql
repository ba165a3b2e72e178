-- CreateTable
CREATE TABLE "RunStepFile" (
    "id" UUID NOT NULL,
    "runStepId" UUID NOT NULL,
    "rowIndex" INTEGER NOT NULL,
    "columnIndex" INTEGER NOT NULL,
    "fileId" UUID NOT NULL,

    CONSTRAINT "RunStepFile_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RunStepFile_fileId_idx" ON "RunStepFile"("fileId");

-- CreateIndex
CREATE UNIQUE INDEX "RunStepFile_runStepId_rowIndex_columnIndex_key" ON "RunStepFile"("runStepId", "rowIndex", "columnIndex");

-- AddForeignKey
ALTER TABLE "RunStepFile" ADD CONSTRAINT "RunStepFile_runStepId_fkey" FOREIGN KEY ("runStepId") REFERENCES "RunStep"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunStepFile" ADD CONSTRAINT "RunStepFile_fileId_fkey" FOREIGN KEY ("fileId") REFERENCES "StoredFile"("id") ON DELETE CASCADE ON UPDATE CASCADE;
