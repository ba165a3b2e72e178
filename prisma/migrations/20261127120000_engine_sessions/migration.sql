-- Issue 25: a sign-in session started by an F-engine token (remote-engine mode). The engine vouches
-- for its user, who never types a Pagewright password there: the password's expiry does not apply.
ALTER TABLE "RefreshTokenFamily" ADD COLUMN "startedByEngine" BOOLEAN NOT NULL DEFAULT false;
