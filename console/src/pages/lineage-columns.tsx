import { useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import { api, enc, V3 } from '../api';
import { Breakable, ErrorMessage, Loading } from '../components/common';
import { href } from '../router';
import { aspect, type EntityV3 } from './entity-info';
import { datasetOfField, describeUrn, fieldUrn, hops, type Direction } from './lineage-model';
import { PartialNotice, ShowMore } from './lineage-parts';
import { useNames, usePagedWalk } from './lineage-walk';
import { fieldRows, type FieldRow } from './schema-model';

/**
 * Columns on demand: a dataset's columns (its schemaMetadata, read only when asked), and for the
 * column chosen, the columns upstream and downstream of it, each a whole walk of its schemaField.
 */

/** Columns per page of a column's walk. */
const COLUMN_PAGE = 25;

type Json = Record<string, unknown>;

/** The dataset's columns: from the schema given (the page's own entity), else read now. */
function useColumns(dataset: string, schema: Json | undefined): { fields?: FieldRow[]; error?: unknown } {
  const given = useMemo(() => (schema ? fieldRows(schema, undefined) : undefined), [schema]);
  const [read, setRead] = useState<{ dataset: string; fields?: FieldRow[]; error?: unknown }>();
  useEffect(() => {
    if (given) return;
    const controller = new AbortController();
    api<EntityV3>('GET', `${V3}/dataset/${enc(dataset)}?aspects=schemaMetadata`, { accept: [404], signal: controller.signal }).then(
      ({ status, body }) => setRead({ dataset, fields: status === 404 ? [] : fieldRows(aspect(body, 'schemaMetadata'), undefined) }),
      (error) => controller.signal.aborted || setRead({ dataset, error }),
    );
    return () => controller.abort();
  }, [dataset, given]);
  if (given) return { fields: given };
  return read?.dataset === dataset ? read : {};
}

export function ColumnLineage({ dataset, name, schema }: { dataset: string; name: string; schema?: Json }) {
  const { fields, error } = useColumns(dataset, schema);
  const [chosen, setChosen] = useState('');
  const id = useId();
  if (error) return <ErrorMessage error={error} />;
  if (!fields) return <Loading label={`Loading the columns of ${name}…`} />;
  if (fields.length === 0) return <p class="muted lineage-columns">No columns recorded for {name}.</p>;
  const column = fields.find((f) => f.fieldPath === chosen);
  return (
    <div class="lineage-columns">
      <label for={id}>Column of {name}</label>
      <select id={id} value={chosen} onChange={(e) => setChosen((e.target as HTMLSelectElement).value)}>
        <option value="">Choose a column ({fields.length})</option>
        {fields.map((f) => (
          <option key={f.fieldPath} value={f.fieldPath}>
            {f.path}
          </option>
        ))}
      </select>
      {column && (
        <div class="column-walks" aria-live="polite">
          <ColumnWalk field={fieldUrn(dataset, column.fieldPath)} column={column.path} direction="UPSTREAM" />
          <ColumnWalk field={fieldUrn(dataset, column.fieldPath)} column={column.path} direction="DOWNSTREAM" />
        </div>
      )}
    </div>
  );
}

function ColumnWalk({ field, column, direction }: { field: string; column: string; direction: Direction }) {
  const walk = usePagedWalk(field, direction, COLUMN_PAGE);
  const names = useNames([...new Set(walk.results.map((r) => datasetOfField(r.entity)))]);
  const list = useRef<HTMLUListElement>(null);
  const id = useId();
  const way = direction === 'UPSTREAM' ? 'Upstream' : 'Downstream';
  return (
    <div class={`column-walk column-${direction.toLowerCase()}`}>
      <p class="column-walk-title" id={id}>
        {way} of {column}
        {walk.total !== undefined && <span class="muted"> ({walk.total})</span>}
      </p>
      <ErrorMessage error={walk.error} />
      {walk.total === undefined ? (
        !walk.error && <Loading />
      ) : walk.results.length === 0 ? (
        <p class="muted">No {way.toLowerCase()} columns recorded.</p>
      ) : (
        <ul class="plain column-list" aria-labelledby={id} ref={list}>
          {walk.results.map((r) => {
            const label = describeUrn(r.entity);
            const dataset = datasetOfField(r.entity);
            return (
              <li key={r.entity} title={r.entity}>
                <code class="column-name">{label.name}</code>
                <span class="node-meta">
                  in{' '}
                  <a href={href('/entity', { urn: dataset })} title={dataset}>
                    <Breakable text={names.get(dataset) ?? label.context ?? dataset} />
                  </a>
                  {label.platform && ` · ${label.platform}`} · <span class="hops">{hops(r.degree)}</span>
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <ShowMore walk={walk} page={COLUMN_PAGE} list={list} what={`${way.toLowerCase()} of ${column}`} />
      <PartialNotice walk={walk} />
    </div>
  );
}
