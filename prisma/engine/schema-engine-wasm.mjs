#!/usr/bin/env node
// Pagewright's own `schema-engine`: a stand-in for the native program that the Prisma 7 CLI
// otherwise downloads from binaries.prisma.sh on first use.
//
// Why it exists: Pagewright must install and migrate on hosts that reach only the npm registry
// (CI, air-gapped customer installs). The Prisma client is engine-free since Prisma 7, but every
// `prisma generate` / `prisma migrate ...` still starts `schema-engine`. This file speaks the same
// stdio JSON-RPC protocol as that binary and runs the WebAssembly build of the same engine
// (@prisma/schema-engine-wasm, from npm) over @prisma/adapter-pg.
//
// Use it through prisma/engine/schema-engine (PRISMA_SCHEMA_ENGINE_BINARY must name an
// executable); scripts/prisma.mjs does that for you unless the variable is already set.
// See docs/offline-install.md.
//
// It relies on Prisma internals (the JSON-RPC contract, adapter-pg's classes), so the versions of
// prisma, @prisma/adapter-pg, @prisma/driver-adapter-utils and @prisma/schema-engine-wasm are
// pinned in the pnpm catalog, and tests/integration/prisma-offline.test.ts runs migrate deploy,
// migrate status and the drift check through it: an upgrade that breaks it fails there first.
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The CLI asks `schema-engine --version`; answer with the engine commit it was built against. */
const ENGINE_HASH = 'd1b3f377ca835d73fd50954a5e22128b9ebdd6b8';

const isDebug = Boolean(process.env.SCHEMA_ENGINE_SHIM_DEBUG);
function debugLog(...parts) {
  if (isDebug) process.stderr.write(parts.map(String).join(' ') + '\n');
}

// ---------------------------------------------------------------------------------------------
// Command line: the same flags the native binary accepts.
// ---------------------------------------------------------------------------------------------
const args = process.argv.slice(2);
const datamodelPaths = [];
let datasource = null;
let cliCommand = null;
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (arg === '--version' || arg === '-V') {
    process.stdout.write(`schema-engine-cli ${ENGINE_HASH}\n`);
    process.exit(0);
  } else if (arg === '--datamodels' || arg === '-d') datamodelPaths.push(args[++i]);
  else if (arg === '--datasource') datasource = JSON.parse(args[++i]);
  else if (arg === '--enabled-preview-features' || arg === '--extension-types') i++; // value unused
  else if (arg === 'cli') cliCommand = args[++i];
}

// ---------------------------------------------------------------------------------------------
// Postgres helpers.
// ---------------------------------------------------------------------------------------------

/**
 * Turn a postgresql:// URL into a pg config object. pg lets `connectionString` override explicit
 * fields, so the shadow/admin connections below (same server, other database) need the parts.
 */
function parseDatabaseUrl(url) {
  const u = new URL(url);
  const config = {
    host: decodeURIComponent(u.hostname) || 'localhost',
    port: u.port ? Number(u.port) : 5432,
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.slice(1)) || 'postgres',
  };
  const sslmode = u.searchParams.get('sslmode');
  if (sslmode && sslmode !== 'disable') config.ssl = { rejectUnauthorized: sslmode === 'verify-full' };
  return { config, schema: u.searchParams.get('schema') || undefined };
}

function quoteIdentifier(name) {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Run one statement on the server's `postgres` database (CREATE/DROP DATABASE need that). */
async function runOnMaintenanceDatabase(config, sql) {
  const pg = require('pg');
  const client = new pg.Client({ ...config, database: 'postgres' });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Log a line in the native engine's JSON log format, which the CLI parses for error codes. */
function logEngineLine(level, fields) {
  process.stderr.write(
    JSON.stringify({ timestamp: new Date().toISOString(), level, target: 'schema_engine::logger', fields }) + '\n',
  );
}

// ---------------------------------------------------------------------------------------------
// One-shot `schema-engine cli <command>` runs (used by `migrate dev`/`reset` to create databases).
// ---------------------------------------------------------------------------------------------
async function runCliCommand() {
  // The CLI discards the first stderr line of `cli` runs (the native engine always logs a start
  // line there), so emit one or a real error line would be swallowed.
  logEngineLine('INFO', { message: `Starting schema engine CLI (wasm): ${cliCommand}` });
  const pg = require('pg');
  const { config } = parseDatabaseUrl(datasource.url);
  try {
    if (cliCommand === 'can-connect-to-database') {
      const client = new pg.Client(config);
      await client.connect();
      try {
        await client.query('SELECT 1');
      } finally {
        await client.end();
      }
    } else if (cliCommand === 'create-database') {
      await runOnMaintenanceDatabase(config, `CREATE DATABASE ${quoteIdentifier(config.database)}`);
      process.stdout.write(`Database '${config.database}' was successfully created.\n`);
    } else if (cliCommand === 'drop-database') {
      await runOnMaintenanceDatabase(config, `DROP DATABASE IF EXISTS ${quoteIdentifier(config.database)}`);
      process.stdout.write('The database was successfully dropped.\n');
    } else {
      throw new Error(`unsupported cli command ${cliCommand}`);
    }
    process.exit(0);
  } catch (error) {
    // Map Postgres SQLSTATEs to the Prisma error codes the CLI shows messages for.
    const prismaCode =
      { '3D000': 'P1003', '28P01': 'P1000', '42P04': 'P1009' }[error.code] ?? 'P1001';
    logEngineLine('ERROR', { error_code: prismaCode, message: error.message });
    process.exit(1);
  }
}

// ---------------------------------------------------------------------------------------------
// Work-arounds for @prisma/adapter-pg 7.10 when it serves the schema engine.
// ---------------------------------------------------------------------------------------------

// adapter-pg has no mapping for Postgres' internal "char" type (OID 18), which the engine's
// catalog queries return (pg_class.relkind, pg_constraint.contype...), and fails with
// "Column type 'char' could not be deserialized". Let adapter-pg convert those columns as text,
// then declare them to the engine as Character columns: the engine reads them `as char`, and a
// Text column there panics (as soon as a database has CHECK constraints, for instance).
const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;
let isCharTypePatched = false;
function mapCharColumnsToCharacter(adapter) {
  if (isCharTypePatched) return;
  const { ColumnTypeEnum } = require('@prisma/driver-adapter-utils');
  const queryablePrototype = Object.getPrototypeOf(Object.getPrototypeOf(adapter)); // PgQueryable
  const { performIO, queryRaw } = queryablePrototype;
  queryablePrototype.queryRaw = async function queryRawWithCharColumns(query) {
    // A per-call view of the queryable, so concurrent queries never see each other's columns.
    const charColumns = [];
    const call = Object.create(this);
    call.performIO = async (sqlQuery) => {
      const result = await performIO.call(this, sqlQuery);
      (result?.fields ?? []).forEach((field, index) => {
        if (field.dataTypeID === PG_CHAR_OID) {
          field.dataTypeID = PG_TEXT_OID;
          charColumns.push(index);
        }
      });
      return result;
    };
    const resultSet = await queryRaw.call(call, query);
    for (const index of charColumns) resultSet.columnTypes[index] = ColumnTypeEnum.Character;
    return resultSet;
  };
  isCharTypePatched = true;
}

// adapter-pg's executeScript splits a migration on every ';', which breaks $$-quoted function
// bodies. Send the whole script as one simple-protocol query, as the native engine does.
function prepareForMigrations(adapter) {
  mapCharColumnsToCharacter(adapter);
  adapter.executeScript = async (script) => {
    try {
      await adapter.underlyingDriver().query(script);
    } catch (error) {
      adapter.onError(error);
    }
  };
  return adapter;
}

/** Shadow databases this process created and has not dropped yet: name -> server config. */
const temporaryShadowDatabases = new Map();

async function dropTemporaryShadowDatabase(database) {
  const config = temporaryShadowDatabases.get(database);
  if (!config) return;
  temporaryShadowDatabases.delete(database);
  await runOnMaintenanceDatabase(config, `DROP DATABASE IF EXISTS ${quoteIdentifier(database)} WITH (FORCE)`);
}

/** Best effort on the way out, so a failed command leaves no prisma_migrate_shadow_db_* behind. */
async function dropAllTemporaryShadowDatabases() {
  for (const database of [...temporaryShadowDatabases.keys()]) {
    await dropTemporaryShadowDatabase(database).catch((error) =>
      logEngineLine('WARN', { message: `could not drop shadow database ${database}: ${error.message}` }),
    );
  }
}

function createAdapterFactory() {
  const { PrismaPg } = require('@prisma/adapter-pg');
  const { bindMigrationAwareSqlAdapterFactory } = require('@prisma/driver-adapter-utils');
  const main = parseDatabaseUrl(datasource.url);
  const adapterOptions = (target) => (target.schema ? { schema: target.schema } : undefined);

  const factory = new PrismaPg(main.config, adapterOptions(main));
  const connect = factory.connect.bind(factory);
  factory.connect = async () => prepareForMigrations(await connect());

  if (datasource.shadowDatabaseUrl) {
    // A configured shadow database is emptied before each use, as the native engine does; the
    // WASM engine expects a clean one and fails on what an earlier replay left there.
    const shadow = parseDatabaseUrl(datasource.shadowDatabaseUrl);
    const schema = quoteIdentifier(shadow.schema ?? 'public');
    factory.connectToShadowDb = async () => {
      const adapter = prepareForMigrations(await new PrismaPg(shadow.config, adapterOptions(shadow)).connect());
      await adapter.executeScript(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema};`);
      return adapter;
    };
  } else {
    // adapter-pg's own connectToShadowDb drops the temporary database while its pool still holds
    // a connection ("database is being accessed by other users"): close the pool, then drop.
    factory.connectToShadowDb = async () => {
      const database = `prisma_migrate_shadow_db_${globalThis.crypto.randomUUID()}`;
      await runOnMaintenanceDatabase(main.config, `CREATE DATABASE ${quoteIdentifier(database)}`);
      temporaryShadowDatabases.set(database, main.config);
      const adapter = prepareForMigrations(
        await new PrismaPg({ ...main.config, database }, adapterOptions(main)).connect(),
      );
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        await dispose();
        await dropTemporaryShadowDatabase(database);
      };
      return adapter;
    };
  }
  return bindMigrationAwareSqlAdapterFactory(factory);
}

// ---------------------------------------------------------------------------------------------
// JSON-RPC server mode (every other command): one request per stdin line, one reply per line.
// ---------------------------------------------------------------------------------------------
// A Rust panic inside the WASM engine reports its message to this registry before the engine
// throws a RuntimeError (the Prisma CLI installs the same one for its own WASM modules). Without it
// the panic hook itself crashes and the CLI only prints "Error in Schema engine".
const panicRegistry = {
  message: '',
  set_message(message) {
    this.message = message;
  },
};
globalThis.PRISMA_WASM_PANIC_REGISTRY = panicRegistry;

function sendToCli(message) {
  process.stdout.write(JSON.stringify(message) + '\n');
}

/** The JSON-RPC error the CLI expects from the engine (it prints `data.message`). */
function rpcErrorResponse(id, error) {
  const isPanic = error instanceof WebAssembly.RuntimeError || error?.name === 'RuntimeError';
  const message = isPanic && panicRegistry.message
    ? `Schema engine panicked: ${panicRegistry.message}`
    : String(error?.message ?? error);
  panicRegistry.message = '';
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: 4466,
      // The CLI shows this line for panics and `data.message` for other errors.
      message: isPanic ? message : 'An error happened. Check the data field for details.',
      data: { is_panic: isPanic, message, error_code: error?.code, meta: error?.meta ?? null },
    },
  };
}

/** Id of the CLI request being served, so a crash can still answer it. */
let activeRequestId = null;

// Some panics surface outside any request's promise (in the engine's own futures) and would kill
// the process without an answer. The CLI then takes the missing answer of `migrate diff
// --exit-code` for "no difference" and exits 0, so a crash would pass the drift check. Answer the
// request with the error instead, clean up, and exit non-zero.
// Clean up first: the CLI stops the engine as soon as it has the answer.
async function failFatally(error) {
  await dropAllTemporaryShadowDatabases();
  if (activeRequestId !== null) sendToCli(rpcErrorResponse(activeRequestId, error));
  else logEngineLine('ERROR', { error_code: 'P1001', message: String(error?.stack ?? error) });
  process.exit(101);
}
process.on('uncaughtException', failFatally);
process.on('unhandledRejection', failFatally);

// The CLI ends the engine with a signal once it has its answers, sometimes while a shadow
// database is still open.
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, async () => {
    await dropAllTemporaryShadowDatabases();
    process.exit(0);
  });
}

async function loadWasmSchemaEngine() {
  const glue = await import('@prisma/schema-engine-wasm/schema_engine_bg');
  const wasmPath =
    process.env.SCHEMA_ENGINE_WASM_PATH ??
    path.join(
      path.dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg')),
      'schema_engine_bg.wasm',
    );
  const instance = new WebAssembly.Instance(new WebAssembly.Module(fs.readFileSync(wasmPath)), {
    './schema_engine_bg.js': glue,
  });
  glue.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start?.();
  return glue.SchemaEngine;
}

async function runRpcServer() {
  if (!datasource?.url) throw new Error('schema-engine (wasm): --datasource with a url is required');
  const SchemaEngine = await loadWasmSchemaEngine();
  const datamodels = datamodelPaths.map((p) => [p, fs.readFileSync(path.resolve(p), 'utf8')]);
  const engine = await SchemaEngine.new(
    { datamodels: datamodels.length ? datamodels : undefined },
    (message) => debugLog('[engine]', message),
    createAdapterFactory(),
  );

  // The engine may call back into the CLI (`print`, used by `migrate diff` to write its output);
  // those requests get ids far above the CLI's own so the two never collide.
  let nextOutgoingId = 1_000_000;
  const awaitingCliReply = new Map();
  const printToCli = (content) =>
    new Promise((resolve) => {
      const id = nextOutgoingId++;
      awaitingCliReply.set(id, resolve);
      sendToCli({ jsonrpc: '2.0', id, method: 'print', params: { content } });
    });

  // Methods the WASM engine lacks or answers differently from the native one.
  const overrides = {
    getDatabaseVersion: (params) => engine.version(params),
    createDatabase: async () => {
      const { config } = parseDatabaseUrl(datasource.url);
      await runOnMaintenanceDatabase(config, `CREATE DATABASE ${quoteIdentifier(config.database)}`);
      return { databaseName: config.database };
    },
    diff: async (params) => {
      const result = await engine.diff(params);
      if (result.stdout) await printToCli(result.stdout);
      return { exitCode: result.exitCode };
    },
    // The WASM engine gives these two no shadow-database factory: they only find the schema of
    // the migration history in a cache that other commands fill. `migrate dev` on a database
    // that is behind its migrations reaches them with the cache empty ("PostgreSQL shadow DB
    // must be provided through an external factory"), so fill it first, read-only.
    createMigration: async (params) => {
      await warmMigrationSchemaCache(params);
      return engine.createMigration(params);
    },
    evaluateDataLoss: async (params) => {
      await warmMigrationSchemaCache(params);
      return engine.evaluateDataLoss(params);
    },
  };
  const warmMigrationSchemaCache = ({ migrationsList, filters }) =>
    engine.diagnoseMigrationHistory({
      migrationsList,
      optInToShadowDatabase: true,
      filters: filters ?? { externalTables: [], externalEnums: [] },
    });

  // Requests run one at a time, in order, as the native engine handles them.
  let queue = Promise.resolve();
  const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  input.on('line', (line) => {
    if (!line.trim()) return;
    const message = JSON.parse(line);
    if (message.method === undefined && awaitingCliReply.has(message.id)) {
      awaitingCliReply.get(message.id)();
      awaitingCliReply.delete(message.id);
      return;
    }
    queue = queue.then(async () => {
      debugLog('[rpc in]', line);
      activeRequestId = message.id;
      try {
        const method =
          overrides[message.method] ??
          ((params) => {
            if (typeof engine[message.method] !== 'function') {
              throw new Error(`Method not supported by the WASM schema engine: ${message.method}`);
            }
            return engine[message.method](params);
          });
        const result = await method(message.params ?? {});
        sendToCli({ jsonrpc: '2.0', id: message.id, result: result ?? null });
      } catch (error) {
        debugLog('[rpc error]', error?.stack ?? error);
        sendToCli(rpcErrorResponse(message.id, error));
      } finally {
        activeRequestId = null;
      }
    });
  });
  input.on('close', async () => {
    await queue;
    try {
      engine.free?.();
    } catch {
      // Freeing is best-effort: the process exits next anyway.
    }
    await dropAllTemporaryShadowDatabases();
    process.exit(0);
  });
}

if (cliCommand) {
  await runCliCommand();
} else {
  await runRpcServer().catch((error) => {
    logEngineLine('ERROR', { error_code: 'P1001', message: String(error?.message ?? error) });
    process.exit(1);
  });
}
