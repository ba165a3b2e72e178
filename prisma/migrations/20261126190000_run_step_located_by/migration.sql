-- Issue 22: a step a fallback locator found keeps which one, and the selector it offers.
ALTER TABLE "RunStep" ADD COLUMN "locatedBy" JSONB;
