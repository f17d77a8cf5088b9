// Placeholder signature owned by the monitoring work; replaced by the real implementation.
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.ts';

export async function registerMonitoringRoutes(
  _app: FastifyInstance,
  _ctx: SandboxContext,
  _opts: { prefix: string },
): Promise<void> {}
