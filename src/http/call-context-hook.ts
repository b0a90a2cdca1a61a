/**
 * Opens the provider call context (providers/call-context.ts) around a route's handler: the request
 * id, the lead of the path and the partner's company, so the provider layer's log lines name them.
 * A preHandler, so the body is parsed and the partner authenticated by then.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { runWithCallContext } from '../providers/index.ts';

export function traceProviderCalls(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const { leadId } = request.params as { leadId?: string };
  runWithCallContext({ requestId: request.id, leadId, companyId: request.auth?.companyId }, done);
}
