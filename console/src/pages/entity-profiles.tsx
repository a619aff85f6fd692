import { useEffect, useState } from 'preact/hooks';
import { ErrorMessage, Loading, shortUrn, when } from '../components/common';
import { TimeChart } from '../components/time-chart';
import { href } from '../router';
import { timeseriesValues } from './timeseries';

/**
 * A dataset's profiles (`datasetProfile`) and operations (`operation`), DataHub's timeseries
 * aspects: the row count over the latest profiles as a chart, the latest profile's column
 * statistics, and the latest operations, newest first.
 */

/** How many profiles the chart spans, and how many operations are listed. */
export const PROFILES_CHARTED = 30;
export const OPERATIONS_LISTED = 20;

interface FieldProfile {
  fieldPath: string;
  [stat: string]: unknown;
}
interface Profile {
  timestampMillis: number;
  rowCount?: number;
  columnCount?: number;
  fieldProfiles?: FieldProfile[];
}
interface Operation {
  timestampMillis: number;
  operationType?: string;
  customOperationType?: string;
  actor?: string;
  numAffectedRows?: number;
  lastUpdatedTimestamp?: number;
}

/** The column statistics shown, in this order, when any field has them. */
const STATS: Array<{ key: string; label: string; kind: 'count' | 'share' | 'text' }> = [
  { key: 'uniqueCount', label: 'Distinct', kind: 'count' },
  { key: 'uniqueProportion', label: 'Distinct share', kind: 'share' },
  { key: 'nullCount', label: 'Nulls', kind: 'count' },
  { key: 'nullProportion', label: 'Null share', kind: 'share' },
  { key: 'min', label: 'Min', kind: 'text' },
  { key: 'max', label: 'Max', kind: 'text' },
  { key: 'mean', label: 'Mean', kind: 'text' },
  { key: 'median', label: 'Median', kind: 'text' },
  { key: 'stdev', label: 'Std. dev.', kind: 'text' },
];

function stat(value: unknown, kind: 'count' | 'share' | 'text'): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number' && kind === 'count') return value.toLocaleString('en-US');
  if (typeof value === 'number' && kind === 'share') return value.toLocaleString('en-US', { style: 'percent', maximumFractionDigits: 1 });
  return String(value);
}

/** The points of one timeseries aspect, read when the entity changes. */
function usePoints<T>(urn: string, aspect: string, limit: number): { points?: T[]; error?: unknown } {
  const [state, setState] = useState<{ urn: string; points?: T[]; error?: unknown }>({ urn: '' });
  useEffect(() => {
    const controller = new AbortController();
    timeseriesValues<T>(urn, 'dataset', aspect, limit, controller.signal).then(
      (points) => setState({ urn, points }),
      (error) => controller.signal.aborted || setState({ urn, error }),
    );
    return () => controller.abort();
  }, [urn]);
  return state.urn === urn ? state : {};
}

export function Profiles({ urn }: { urn: string }) {
  const { points, error } = usePoints<Profile>(urn, 'datasetProfile', PROFILES_CHARTED);
  if (points?.length === 0) return null;
  const latest = points?.[0];
  const charted = (points ?? []).flatMap((p) => (typeof p.rowCount === 'number' ? [{ time: p.timestampMillis, value: p.rowCount }] : []));
  const fields = latest?.fieldProfiles ?? [];
  const stats = STATS.filter((s) => fields.some((f) => f[s.key] !== undefined && f[s.key] !== null));
  return (
    <section class="card" aria-labelledby="profiles-title">
      <h2 id="profiles-title">Profiles</h2>
      <ErrorMessage error={error} />
      {!points && !error && <Loading label="Loading the profiles…" />}
      {latest && (
        <>
          <p class="profile-latest">
            Latest profile {when(latest.timestampMillis)}
            {typeof latest.rowCount === 'number' && <>: {latest.rowCount.toLocaleString('en-US')} rows</>}
            {typeof latest.columnCount === 'number' && <>, {latest.columnCount.toLocaleString('en-US')} columns</>}
          </p>
          {charted.length > 0 && (
            <figure class="profile-chart">
              <figcaption>Row count{points && points.length >= PROFILES_CHARTED ? ` (the latest ${PROFILES_CHARTED} profiles)` : ''}</figcaption>
              <TimeChart points={charted} label="Row count" unit="rows" />
            </figure>
          )}
          {fields.length > 0 && (
            <div class="table-wrap">
              <table class="field-profiles">
                <caption class="muted">Column statistics of the latest profile</caption>
                <thead>
                  <tr>
                    <th scope="col">Field</th>
                    {stats.map((s) => (
                      <th key={s.key} scope="col">
                        {s.label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {fields.map((f, i) => (
                    <tr key={i}>
                      <th scope="row">
                        <code>{f.fieldPath}</code>
                      </th>
                      {stats.map((s) => (
                        <td key={s.key}>{stat(f[s.key], s.kind)}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}

export function Operations({ urn }: { urn: string }) {
  const { points, error } = usePoints<Operation>(urn, 'operation', OPERATIONS_LISTED);
  if (points?.length === 0) return null;
  return (
    <section class="card" aria-labelledby="operations-title">
      <h2 id="operations-title">Operations</h2>
      <ErrorMessage error={error} />
      {!points && !error && <Loading label="Loading the operations…" />}
      {points && (
        <div class="table-wrap">
          <table class="operations">
            <caption class="muted">{points.length >= OPERATIONS_LISTED ? `The latest ${OPERATIONS_LISTED} operations, newest first` : 'Newest first'}</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Operation</th>
                <th scope="col">Actor</th>
                <th scope="col">Rows affected</th>
                <th scope="col">Data last updated</th>
              </tr>
            </thead>
            <tbody>
              {points.map((op, i) => (
                <tr key={i}>
                  <td>{when(op.timestampMillis)}</td>
                  <td>{op.operationType === 'CUSTOM' && op.customOperationType ? `CUSTOM: ${op.customOperationType}` : (op.operationType ?? op.customOperationType ?? '')}</td>
                  <td>
                    {op.actor ? (
                      <a href={href('/entity', { urn: op.actor })} title={op.actor}>
                        {shortUrn(op.actor)}
                      </a>
                    ) : (
                      ''
                    )}
                  </td>
                  <td>{typeof op.numAffectedRows === 'number' ? op.numAffectedRows.toLocaleString('en-US') : ''}</td>
                  <td>{when(op.lastUpdatedTimestamp)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
