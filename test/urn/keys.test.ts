import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { enc, testApp, type TestApp } from '../helpers.js';
import { urnOf } from '../registry/synthesize.js';

/**
 * Every entity type's URN carries its key aspect as DataHub writes it: one field bare
 * (`urn:li:tag:pii`), several as a tuple in the key's field order (`urn:li:mlPrimaryKey:(ns,name)`).
 * A URN whose parts do not fit the key is `Invalid urn!` (400) on every API.
 */

/** A URN of the type that breaks its key: a tuple one part short, or two parts for a key of one field. */
function invalidUrnOf(valid: string, fields: number): string {
  const prefix = valid.slice(0, valid.indexOf(':', 'urn:li:'.length) + 1);
  if (fields === 1) return `${prefix}(first,second)`;
  const id = valid.slice(prefix.length);
  const parts = splitTuple(id);
  return `${prefix}(${parts.slice(0, -1).join(',')})`;
}

function splitTuple(id: string): string[] {
  const inner = id.slice(1, -1);
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === '(') depth++;
    else if (inner[i] === ')') depth--;
    else if (inner[i] === ',' && depth === 0) {
      parts.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  return [...parts, inner.slice(start)];
}

describe('URN keys of every entity type', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  const reads = (type: string, urn: string) => [
    `/openapi/v2/entity/${type}/${enc(urn)}`,
    `/openapi/v3/entity/${type.toLowerCase()}/${enc(urn)}`,
    `/entitiesV2/${enc(urn)}`,
  ];

  it('accepts a URN made from each key aspect and refuses one whose parts do not fit it, on v2, v3 and Rest.li', async () => {
    const { registry } = t.services;
    const types = registry.entityTypes();
    assert.equal(types.length, 56);
    for (const entity of types) {
      const valid = urnOf(registry, entity.name);
      const fields = entity.keyAspect.keyFields!.length;
      for (const url of reads(entity.name, valid)) {
        const res = await t.call({ method: 'GET', url });
        // Nothing is written: v2 and v3 answer 404, Rest.li's entitiesV2 the key alone.
        assert.ok(res.status === 404 || res.status === 200, `${entity.name} ${url}: ${res.status} ${res.raw}`);
      }
      const invalid = invalidUrnOf(valid, fields);
      for (const url of reads(entity.name, invalid)) {
        const res = await t.call({ method: 'GET', url });
        assert.equal(res.status, 400, `${entity.name} ${url}: ${res.raw}`);
        const message = res.body.message ?? res.body.error;
        assert.equal(message, `Invalid urn!: ${invalid}`, url);
      }
    }
  });

  const realistic: Array<[string, Record<string, string>]> = [
    ['urn:li:mlPrimaryKey:(user_features,user_id)', { featureNamespace: 'user_features', name: 'user_id' }],
    ['urn:li:dataProcessInstance:0f6c1e8f4c2b3a19', { id: '0f6c1e8f4c2b3a19' }],
    ['urn:li:mlModelDeployment:(urn:li:dataPlatform:sagemaker,churn-endpoint,PROD)', { platform: 'urn:li:dataPlatform:sagemaker', name: 'churn-endpoint', origin: 'PROD' }],
    ['urn:li:mlFeature:(user_features,days_since_signup)', { featureNamespace: 'user_features', name: 'days_since_signup' }],
    ['urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,user_features)', { platform: 'urn:li:dataPlatform:feast', name: 'user_features' }],
    ['urn:li:dataJob:(urn:li:dataFlow:(airflow,nightly,PROD),load_orders)', { flow: 'urn:li:dataFlow:(airflow,nightly,PROD)', jobId: 'load_orders' }],
    ['urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,orders,PROD),customer.id)', { parent: 'urn:li:dataset:(urn:li:dataPlatform:hive,orders,PROD)', fieldPath: 'customer.id' }],
    ['urn:li:dataHubRetention:(*,*)', { entityName: '*', aspectName: '*' }],
    ['urn:li:dataPlatformInstance:(urn:li:dataPlatform:mysql,eu-west)', { platform: 'urn:li:dataPlatform:mysql', instance: 'eu-west' }],
    ['urn:li:tag:(pii)', { name: 'pii' }],
  ];
  for (const [urn, key] of realistic) {
    it(`reads the key of ${urn} from its URN`, async () => {
      const res = await t.call({ method: 'GET', url: `/entitiesV2/${enc(urn)}` });
      assert.equal(res.status, 200, res.raw);
      const entity = t.services.registry.entityType(urn.split(':')[2])!;
      assert.deepEqual(res.body.aspects[entity.keyAspect.name].value, key);
    });
  }

  it('refuses the wrong number of parts with the key it expected, and a fabric that is not one', async () => {
    for (const urn of [
      'urn:li:mlPrimaryKey:user_id',
      'urn:li:mlPrimaryKey:(a,b,c)',
      'urn:li:dataProcessInstance:(run,1)',
      'urn:li:mlModelDeployment:(urn:li:dataPlatform:sagemaker,churn-endpoint,NOWHERE)',
      'urn:li:mlModelDeployment:(sagemaker,churn-endpoint,PROD)',
    ]) {
      const res = await t.call({ method: 'GET', url: `/openapi/v3/entity/x/${enc(urn)}` });
      assert.equal(res.status, 400, urn);
      assert.equal(res.body.message ?? res.body.error, `Invalid urn!: ${urn}`);
    }
  });
});
