-- Issue 25 (remote-engine mode): which F-engine user (token issuer and subject) signs in as which account.
-- CreateTable
CREATE TABLE "EngineAccountLink" (
    "id" UUID NOT NULL,
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "userId" UUID NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EngineAccountLink_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "EngineAccountLink_issuer_subject_key" ON "EngineAccountLink"("issuer", "subject");

-- CreateIndex
CREATE INDEX "EngineAccountLink_userId_idx" ON "EngineAccountLink"("userId");

-- AddForeignKey
ALTER TABLE "EngineAccountLink" ADD CONSTRAINT "EngineAccountLink_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
