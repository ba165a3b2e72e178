-- Issue 27: which browser a run went to ("local": its worker's own Chromium, else a browser host's
-- name from BROWSER_ENDPOINTS), so an operator can tell which host a failed run was on.
ALTER TABLE "Run" ADD COLUMN "browserName" TEXT;
