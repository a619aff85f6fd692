import { useMemo, useState } from 'preact/hooks';
import { Breakable, shortUrn } from '../components/common';
import { aspect, type EntityV3 } from './entity-info';
import { fieldRows, filterRows, labelsOnPage } from './schema-model';

/** Fields on one page of the table: a 1,000-field schema must not freeze the page. */
export const FIELDS_PER_PAGE = 100;

/** Indentation per nesting level, capped so deep paths keep room for their names. */
const indent = (depth: number) => `${Math.min(depth, 12) * 1.1}rem`;

export function SchemaFields({ entity }: { entity: EntityV3 }) {
  const schema = aspect(entity, 'schemaMetadata');
  const editable = aspect(entity, 'editableSchemaMetadata');
  const all = useMemo(() => fieldRows(schema, editable), [schema, editable]);
  const [filter, setFilter] = useState('');
  const [page, setPage] = useState(0);
  const rows = useMemo(() => filterRows(all, filter), [all, filter]);
  const pages = Math.max(1, Math.ceil(rows.length / FIELDS_PER_PAGE));
  const current = Math.min(page, pages - 1);
  const shown = rows.slice(current * FIELDS_PER_PAGE, (current + 1) * FIELDS_PER_PAGE);
  const labels = labelsOnPage(shown);
  const first = current * FIELDS_PER_PAGE + 1;
  const range = rows.length === 0 ? 'No fields' : `Fields ${first.toLocaleString('en-US')}–${(first + shown.length - 1).toLocaleString('en-US')} of ${rows.length.toLocaleString('en-US')}`;
  return (
    <section class="card" aria-labelledby="schema-title">
      <h2 id="schema-title">Schema</h2>
      {all.length === 0 ? (
        <p class="muted">No fields.</p>
      ) : (
        <>
          {all.length > FIELDS_PER_PAGE / 4 && (
            <div class="schema-filter">
              <label for="schema-filter">Filter fields</label>
              <input
                id="schema-filter"
                type="search"
                value={filter}
                onInput={(e) => {
                  setFilter((e.target as HTMLInputElement).value);
                  setPage(0);
                }}
              />
            </div>
          )}
          <div class="table-wrap">
            <table class="schema">
              <caption class="muted" aria-live="polite">
                {range}
                {filter.trim() && rows.length !== all.length ? ` (filtered from ${all.length.toLocaleString('en-US')})` : ''}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  <th scope="col">Type</th>
                  <th scope="col">Nullable</th>
                  <th scope="col">Description</th>
                  <th scope="col">Tags and terms</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((row, i) => (
                  <tr key={row.fieldPath}>
                    <th scope="row" class="field-path" title={row.fieldPath}>
                      <code style={{ paddingLeft: indent(row.depth) }}>
                        <Breakable text={labels[i]} />
                      </code>
                    </th>
                    <td>
                      {row.type && <span class="field-type">{row.type}</span>}
                      {row.nativeType && <code class="field-native muted">{row.nativeType}</code>}
                    </td>
                    <td>{row.nullable ? 'yes' : 'no'}</td>
                    <td>
                      {row.description ?? <span class="muted">—</span>}
                      {row.original && <span class="muted schema-original"> (originally: {row.original})</span>}
                    </td>
                    <td>
                      {row.labels.map((u) => (
                        <span key={u} class="chip" title={u}>
                          {shortUrn(u)}
                        </span>
                      ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {pages > 1 && (
            <div class="row pager" role="group" aria-label="Schema pages">
              <button type="button" class="secondary" disabled={current === 0} onClick={() => setPage(current - 1)}>
                Previous fields
              </button>
              <span class="muted">
                Page {current + 1} of {pages}
              </span>
              <button type="button" class="secondary" disabled={current >= pages - 1} onClick={() => setPage(current + 1)}>
                Next fields
              </button>
            </div>
          )}
        </>
      )}
    </section>
  );
}
