-- DropForeignKey
ALTER TABLE "DatasetRow" DROP CONSTRAINT "DatasetRow_datasetId_fkey";

-- DropForeignKey
ALTER TABLE "DatasetRow" DROP CONSTRAINT "DatasetRow_runId_fkey";

-- AlterTable
ALTER TABLE "Dataset" ADD COLUMN     "filledAt" TIMESTAMP(3),
ADD COLUMN     "rowCount" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Query" ADD COLUMN     "timeZone" VARCHAR(64) NOT NULL DEFAULT 'UTC';

-- DropTable
DROP TABLE "DatasetRow";


-- Each dataset's rows live in a table of their own, one typed column per field (see
-- packages/db/src/datasets/dataset-table.ts): this schema holds those tables.
CREATE SCHEMA IF NOT EXISTS "dataset_rows";

-- A text as a timestamptz when it reads as one, else NULL: a field changed from TEXT to DATETIME
-- keeps the values that are dates and empties the others instead of failing the save.
CREATE FUNCTION "dataset_rows".try_timestamptz(value text) RETURNS timestamptz
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN value::timestamptz;
EXCEPTION WHEN others THEN
  RETURN NULL;
END;
$$;

-- A dataset's table goes with its row, whichever way the row goes (its own delete, or its owner's
-- account removed by cascade): no table is left behind without its dataset.
CREATE FUNCTION "dataset_rows".drop_dataset_table() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('DROP TABLE IF EXISTS %I.%I', 'dataset_rows', 'ds_' || replace(OLD.id::text, '-', ''));
  RETURN OLD;
END;
$$;

CREATE TRIGGER "Dataset_drop_table" AFTER DELETE ON "Dataset"
FOR EACH ROW EXECUTE FUNCTION "dataset_rows".drop_dataset_table();
