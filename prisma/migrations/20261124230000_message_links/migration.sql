-- Messaging (issue 14): a link token per recipient (only its hash kept, with an expiry), replies by
-- addresses without an account (senderId null), Cc/Bcc lines never null.
UPDATE "Message" SET "ccLine" = '' WHERE "ccLine" IS NULL;
UPDATE "Message" SET "bccLine" = '' WHERE "bccLine" IS NULL;

-- DropForeignKey
ALTER TABLE "Message" DROP CONSTRAINT "Message_senderId_fkey";

-- DropIndex
DROP INDEX "Message_emailToken_key";

-- DropIndex
DROP INDEX "MessageRecipient_messageId_kind_email_key";

-- DropIndex
DROP INDEX "MessageRecipient_userId_createdAt_idx";

-- AlterTable
ALTER TABLE "Message" DROP COLUMN "emailToken",
ALTER COLUMN "senderId" DROP NOT NULL,
ALTER COLUMN "ccLine" SET NOT NULL,
ALTER COLUMN "ccLine" SET DEFAULT '',
ALTER COLUMN "bccLine" SET NOT NULL,
ALTER COLUMN "bccLine" SET DEFAULT '';

-- AlterTable
ALTER TABLE "MessageRecipient" ADD COLUMN     "mailedAt" TIMESTAMP(3),
ADD COLUMN     "tokenExpiresAt" TIMESTAMP(3),
ADD COLUMN     "tokenHash" CHAR(64);

-- CreateIndex
CREATE UNIQUE INDEX "MessageRecipient_tokenHash_key" ON "MessageRecipient"("tokenHash");

-- CreateIndex
CREATE INDEX "MessageRecipient_userId_createdAt_id_idx" ON "MessageRecipient"("userId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "MessageRecipient_email_idx" ON "MessageRecipient"("email");

-- CreateIndex
CREATE UNIQUE INDEX "MessageRecipient_messageId_email_key" ON "MessageRecipient"("messageId", "email");

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_senderId_fkey" FOREIGN KEY ("senderId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;


