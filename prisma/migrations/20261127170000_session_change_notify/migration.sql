-- Issue 27: API processes keep a few seconds of session checks in memory (apps/api
-- modules/auth/session-callers.ts). Every write that changes what the check reads (a session
-- family ended or moved, an account disabled, renamed, its password state changed or deleted) tells
-- them at commit, whoever writes it: the API, the worker, or an operator's SQL.
CREATE FUNCTION "pagewright_session_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'User' THEN
    PERFORM pg_notify('pagewright_session_changed', OLD.id::text);
  ELSE
    PERFORM pg_notify('pagewright_session_changed', OLD."userId"::text);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "User_session_changed"
  AFTER UPDATE OF email, "firstName", "lastName", enabled, "tempPasswordSet", "passwordChangedAt"
  OR DELETE ON "User"
  FOR EACH ROW EXECUTE FUNCTION "pagewright_session_changed"();

CREATE TRIGGER "RefreshTokenFamily_session_changed"
  AFTER UPDATE OF "userId", "revokedAt", "expiresAt", "startedByEngine"
  OR DELETE ON "RefreshTokenFamily"
  FOR EACH ROW EXECUTE FUNCTION "pagewright_session_changed"();
