import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  MESSAGES,
  ENGINE_API_PREFIX,
  ENGINE_DATASET_ENTITIES,
  ENGINE_ENTITIES,
  ENGINE_INVESTORS_PAGE_SIZE_MAX,
  engineImportRequestSchema,
  engineImportResponseSchema,
  engineInvestorSectionsSchema,
  engineInvestorsPageSchema,
  engineSignInRequestSchema,
  engineSignInResponseSchema,
  type EngineEntity,
  type EngineImportRow,
} from '@pagewright/shared';
import type { SandboxStore } from '../store.js';

export interface ConnectorOptions {
  store: SandboxStore;
  username: string;
  password: string;
  sessionTtlSeconds: number;
}

export const SESSION_REFUSED = 'Session expired or unknown';

const investorsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(ENGINE_INVESTORS_PAGE_SIZE_MAX).default(20),
  search: z.string().max(200).default(''),
});
const entityParamsSchema = z.object({ entity: z.enum(ENGINE_ENTITIES) });
const investorParamsSchema = z.object({ portfolioid: z.string().min(1).max(200) });

/** Equal-time comparison of two secrets of any length. */
function isSameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** A 400 whose sentence names what was wrong (the first problem zod found). */
function badRequest(reply: FastifyReply, error: z.ZodError): FastifyReply {
  const issue = error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  return reply.code(400).send({ error: `Invalid request: ${where}${issue?.message ?? 'unreadable'}` });
}

/** The fields of an entity the engine refuses a row without. */
function requiredFields(entity: EngineEntity): string[] {
  const definition = Object.values(ENGINE_DATASET_ENTITIES).find((candidate) => candidate.entity === entity);
  return (definition?.fields ?? []).filter((field) => field.isRequired).map((field) => field.name);
}

/** A file row whose documentType says KYC form ("KYC", "kyc form"…). */
function isKycForm(row: EngineImportRow): boolean {
  const type = row.values.documentType;
  return typeof type === 'string' && /^kyc(\s*form)?$/i.test(type.trim());
}

function missingFields(row: EngineImportRow, required: readonly string[]): string[] {
  return required.filter((name) => {
    const value = row.values[name];
    return value === undefined || value === null || value === '';
  });
}

/** The connector contract (packages/shared/src/contracts/fengine.ts, docs/f-engine-connector.yaml). */
export function connectorRoutes(app: FastifyInstance, options: ConnectorOptions): void {
  const { store } = options;

  const requireSession = async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization ?? '';
    const token = /^Bearer (\S+)$/i.exec(header)?.[1];
    if (!token || !(await store.isSessionLive(token))) {
      return reply.code(401).send({ error: SESSION_REFUSED });
    }
    return undefined;
  };

  app.post(
    `${ENGINE_API_PREFIX}/sessions`,
    { config: { connectorCall: 'sessions' } },
    async (request, reply) => {
      const body = engineSignInRequestSchema.safeParse(request.body);
      if (!body.success) return badRequest(reply, body.error);
      // Both compared, always: the answer's timing says nothing about which one was wrong.
      const isUser = isSameSecret(body.data.username, options.username);
      const isPassword = isSameSecret(body.data.password, options.password);
      if (!isUser || !isPassword) return reply.code(401).send({ error: 'Wrong user name or password' });
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(Date.now() + options.sessionTtlSeconds * 1000);
      await store.createSession(token, body.data.username, expiresAt);
      return engineSignInResponseSchema.parse({ token, expiresAt: expiresAt.toISOString() });
    },
  );

  app.get(
    `${ENGINE_API_PREFIX}/investors`,
    { config: { connectorCall: 'investors' }, preHandler: requireSession },
    async (request, reply) => {
      const query = investorsQuerySchema.safeParse(request.query);
      if (!query.success) return badRequest(reply, query.error);
      const { page, pageSize, search } = query.data;
      const { items, total } = await store.listInvestors(page, pageSize, search.trim());
      return engineInvestorsPageSchema.parse({ items, page, pageSize, total });
    },
  );

  app.get(
    `${ENGINE_API_PREFIX}/investors/:portfolioid/sections`,
    { config: { connectorCall: 'sections' }, preHandler: requireSession },
    async (request, reply) => {
      const params = investorParamsSchema.safeParse(request.params);
      if (!params.success) return badRequest(reply, params.error);
      const sections = await store.investorSections(params.data.portfolioid);
      if (!sections)
        return reply.code(404).send({ error: `No investor with portfolio id ${params.data.portfolioid}` });
      return engineInvestorSectionsSchema.parse({ portfolioid: params.data.portfolioid, sections });
    },
  );

  app.post(
    `${ENGINE_API_PREFIX}/imports/:entity`,
    { config: { connectorCall: 'imports' }, preHandler: requireSession },
    async (request, reply) => {
      const params = entityParamsSchema.safeParse(request.params);
      if (!params.success) return reply.code(404).send({ error: 'No such entity' });
      const body = engineImportRequestSchema.safeParse(request.body);
      if (!body.success) return badRequest(reply, body.error);
      const required = requiredFields(params.data.entity);
      const rejected: { externalId: string; reason: string }[] = [];
      const accepted: EngineImportRow[] = [];
      for (const row of body.data.rows) {
        const missing = missingFields(row, required);
        if (missing.length > 0) {
          rejected.push({
            externalId: row.externalId,
            reason: `Missing required field(s): ${missing.join(', ')}`,
          });
        } else if (params.data.entity === 'files' && !isKycForm(row)) {
          // The engine files only KYC forms for now (data spec: 'Only KYC form allowed at this moment').
          rejected.push({ externalId: row.externalId, reason: MESSAGES['recognition.only.kyc'] });
        } else {
          accepted.push(row);
        }
      }
      const { created, updated } = await store.upsertRows(params.data.entity, accepted);
      return engineImportResponseSchema.parse({ created, updated, rejected });
    },
  );

  // Not part of the contract: tests and demos read back what was imported.
  app.get(
    `${ENGINE_API_PREFIX}/imports/:entity`,
    { config: { connectorCall: 'imports' }, preHandler: requireSession },
    async (request, reply) => {
      const params = entityParamsSchema.safeParse(request.params);
      if (!params.success) return reply.code(404).send({ error: 'No such entity' });
      return { rows: await store.importedRows(params.data.entity) };
    },
  );
}
