import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

/** The connector calls a fault can be limited to. */
export const CONNECTOR_CALLS = ['sessions', 'investors', 'sections', 'imports'] as const;
export type ConnectorCall = (typeof CONNECTOR_CALLS)[number];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which connector call a route is (fault switches and logs name it). */
    connectorCall?: ConnectorCall;
  }
}

/** POST /sandbox/faults: how the next connector calls misbehave, until DELETE /sandbox/faults. */
export const faultsSchema = z
  .object({
    /** Every matching call answers this much later (also before the faults below). */
    delayMs: z.number().int().min(0).max(120_000).optional(),
    failWith: z.union([z.literal(500), z.literal(503), z.null()]).optional(),
    /** 200 with an HTML page, as a proxy's or a login wall's page would be. */
    answerHtml: z.boolean().optional(),
    /** 200 with JSON of the wrong shape. */
    malformed: z.boolean().optional(),
    /** The connection is closed without an answer. */
    down: z.boolean().optional(),
    /** Only these calls (default: all four). */
    calls: z.array(z.enum(CONNECTOR_CALLS)).optional(),
  })
  .strict();
export type Faults = z.infer<typeof faultsSchema>;

const MALFORMED_ANSWER = { data: 'not what the contract says', items: 'none', ok: 1 };
const HTML_ANSWER =
  '<html><head><title>Maintenance</title></head><body><h1>Down for maintenance</h1></body></html>';

/** The faults switched on now (one sandbox process, one set). */
export class FaultSwitches {
  private faults: Faults = {};

  set(faults: Faults): void {
    this.faults = faults;
  }

  clear(): void {
    this.faults = {};
  }

  current(): Faults {
    return this.faults;
  }

  /**
   * An onRequest hook: applies the faults to the connector call the route is. Runs before the body
   * is read or the bearer checked, as a failing proxy or server in front of an engine would.
   */
  readonly apply = async (
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<FastifyReply | undefined> => {
    const call = request.routeOptions.config.connectorCall;
    const faults = this.faults;
    if (!call || (faults.calls && !faults.calls.includes(call))) return undefined;
    if (faults.delayMs) await new Promise((resolve) => setTimeout(resolve, faults.delayMs));
    if (faults.down) {
      reply.hijack();
      request.raw.socket.destroy();
      return reply;
    }
    if (faults.failWith) {
      return reply.code(faults.failWith).send({ error: `Sandbox fault: answering ${faults.failWith}` });
    }
    if (faults.answerHtml) return reply.code(200).type('text/html; charset=utf-8').send(HTML_ANSWER);
    if (faults.malformed) return reply.code(200).send(MALFORMED_ANSWER);
    return undefined;
  };
}
