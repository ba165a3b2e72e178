import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { faultsSchema, type FaultSwitches } from '../faults.js';
import { ADMIN_HEADER } from '../constants.js';
import type { SandboxStore } from '../store.js';

/** Test controls: fault switches and a reset to the seed, behind the admin token. */
export function adminRoutes(
  app: FastifyInstance,
  options: { adminToken: string; faults: FaultSwitches; store: SandboxStore },
): void {
  const expected = createHash('sha256').update(options.adminToken).digest();
  const requireAdmin = async (request: FastifyRequest, reply: FastifyReply) => {
    const given = request.headers[ADMIN_HEADER];
    const isAdmin =
      typeof given === 'string' && timingSafeEqual(createHash('sha256').update(given).digest(), expected);
    return isAdmin ? undefined : reply.code(403).send({ error: 'Wrong or missing sandbox admin token' });
  };

  app.get('/sandbox/faults', { preHandler: requireAdmin }, async () => options.faults.current());

  app.post('/sandbox/faults', { preHandler: requireAdmin }, async (request, reply) => {
    const faults = faultsSchema.safeParse(request.body ?? {});
    if (!faults.success) {
      return reply
        .code(400)
        .send({ error: `Invalid faults: ${faults.error.issues[0]?.message ?? 'unreadable'}` });
    }
    options.faults.set(faults.data);
    request.log.warn({ faults: faults.data }, 'sandbox faults switched on');
    return faults.data;
  });

  app.delete('/sandbox/faults', { preHandler: requireAdmin }, async (request, reply) => {
    options.faults.clear();
    request.log.info('sandbox faults cleared');
    return reply.code(204).send();
  });

  app.post('/sandbox/reset', { preHandler: requireAdmin }, async (request, reply) => {
    options.faults.clear();
    await options.store.reset();
    request.log.info('sandbox reset to its seed');
    return reply.code(204).send();
  });
}
