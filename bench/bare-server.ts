/**
 * The baseline: a bare Fastify 5 server doing the HTTP and JSON work of an aspect read and an
 * aspect upsert, and nothing else. Usage: node dist/bench/bare-server.js <port>
 */
import Fastify from 'fastify';

const port = Number(process.argv[2]);

const app = Fastify({
  logger: false,
  exposeHeadRoutes: false,
  // Same router settings as urnbase: the benchmark sends percent-encoded URNs as the id.
  routerOptions: { maxParamLength: 8192 },
});

// Shaped and sized like urnbase's GET …/{urn}/globalTags response for a seeded dataset.
const stored = { value: { tags: [{ tag: 'urn:li:tag:pii' }, { tag: 'urn:li:tag:tier1' }, { tag: 'urn:li:tag:t0' }] } };

app.get<{ Params: { id: string } }>('/bare/:id', async () => stored);

// Shaped like urnbase's upsert response: {urn, aspects: {globalTags: {value}}}.
app.post<{ Params: { id: string }; Body: unknown }>('/bare/:id', async (req) => ({
  urn: req.params.id,
  aspects: { globalTags: { value: req.body } },
}));

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
await app.listen({ port, host: '127.0.0.1' });
