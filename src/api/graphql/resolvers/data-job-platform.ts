import { platformOf } from '../../../graph/platform.js';
import type { GraphQLContext } from '../context.js';

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * DataJob.dataPlatformInstance, which DataHub's SDK lineage client reads a job's platform from:
 * the job's dataPlatformInstance aspect (read through the request's EntityLoader), else the
 * platform of its flow's orchestrator, as the lineage service's platform filter reads it.
 */
export const dataJobPlatformResolvers = {
  DataJob: {
    async dataPlatformInstance(o: { urn: string }, _: unknown, ctx: GraphQLContext) {
      const instance = await ctx.entities.aspect(o.urn, 'dataPlatformInstance');
      const platform = text(instance?.platform) ?? platformOf(ctx.services.registry, o.urn);
      return platform === undefined ? null : { platform: { urn: platform }, instanceId: text(instance?.instance) ?? null };
    },
  },
};
