-- Issue 24, items 1 and 9: a message's e-mails go through an outbox (each recipient's mail state,
-- claimed in SQL by the worker), and a reply written through a link names the link (its daily limits).
CREATE TYPE "MessageMailState" AS ENUM ('PENDING', 'SENDING', 'SENT');

ALTER TABLE "MessageRecipient"
  ADD COLUMN "mailState" "MessageMailState" NOT NULL DEFAULT 'PENDING',
  ADD COLUMN "mailStateAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
-- Mails already accepted by the mail server are sent; the others are picked up by the re-queue job.
UPDATE "MessageRecipient" SET "mailState" = 'SENT', "mailStateAt" = "mailedAt" WHERE "mailedAt" IS NOT NULL;
CREATE INDEX "MessageRecipient_mailState_mailStateAt_idx" ON "MessageRecipient"("mailState", "mailStateAt");

ALTER TABLE "Message" ADD COLUMN "viaRecipientId" UUID;
CREATE INDEX "Message_viaRecipientId_sentAt_idx" ON "Message"("viaRecipientId", "sentAt");
ALTER TABLE "Message" ADD CONSTRAINT "Message_viaRecipientId_fkey" FOREIGN KEY ("viaRecipientId")
  REFERENCES "MessageRecipient"("id") ON DELETE SET NULL ON UPDATE CASCADE;
