import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PartialFault } from '../context.ts';
import {
  parseListQuery,
  parseProfileIdsBody,
  type RawQuery,
} from '../../../../src/lib/service/rules/index.ts';
import { addProfiles, removeProfiles, type AddDeps } from './commit.ts';
import { listPageJson, listWatchlist, type ListSources } from './list.ts';

export const ADDED_STATUS = 'Profiles added or updated successfully';
export const REMOVED_STATUS = 'Profiles removed successfully';

export interface RouteDeps extends AddDeps, ListSources {
  now(): Date;
  /** Bill watched carriers for months begun since their last charge. */
  rollover(): void;
  /** Consume a 207 fault rule armed for this request, if any. */
  takeFault(request: FastifyRequest): PartialFault | undefined;
}

/** POST add, POST remove and GET list under `prefix` ('/v2' or '/api/v2'). */
export async function registerMonitoringRoutes(
  app: FastifyInstance,
  prefix: string,
  deps: RouteDeps,
): Promise<void> {
  await app.register(
    async (scope) => {
      scope.post('/monitoring/add', async (request, reply) => {
        const ids = parseProfileIdsBody(request.body);
        deps.rollover();
        const fault = deps.takeFault(request);
        const { added, failed } = addProfiles(deps, ids, request.apiKey, deps.now(), fault);
        if (failed.length === 0) return { status: ADDED_STATUS, added };
        const error = `${failed.length} profile ID(s) were not added; retry the failed ones`;
        return reply.code(207).send({ status: 'partial', added, error, failed });
      });
      scope.post('/monitoring/remove', async (request) => {
        const ids = parseProfileIdsBody(request.body);
        deps.rollover();
        return { status: REMOVED_STATUS, removed: removeProfiles(deps.store, ids) };
      });
      scope.get('/monitoring/list', async (request, reply) => {
        const query = parseListQuery(request.query as RawQuery);
        deps.rollover();
        const page = listWatchlist(query, deps);
        return reply.type('application/json; charset=utf-8').send(listPageJson(page));
      });
    },
    { prefix },
  );
}
