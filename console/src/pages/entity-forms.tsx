import { useEffect, useState } from 'preact/hooks';
import { ErrorMessage, shortUrn } from '../components/common';
import { href } from '../router';
import { aspect, type EntityV3 } from './entity-info';
import { loadFormInfos, stateClass, stateLabel, stateOf, type FormInfo, type FormsAspect } from './forms-model';

/** The forms an entity holds (its computed `forms` aspect): each form's state here, linking to the form. */
export function EntityForms({ entity }: { entity: EntityV3 }) {
  const forms = aspect(entity, 'forms') as FormsAspect | undefined;
  const urns = [...new Set([...(forms?.incompleteForms ?? []), ...(forms?.completedForms ?? [])].map((f) => f.urn))];
  const [infos, setInfos] = useState<Map<string, FormInfo>>(new Map());
  const [error, setError] = useState<unknown>();
  const key = urns.join(' ');
  useEffect(() => {
    if (urns.length === 0) return;
    const controller = new AbortController();
    loadFormInfos(urns, controller.signal).then(setInfos, (e) => controller.signal.aborted || setError(e));
    return () => controller.abort();
  }, [key]);
  return (
    <section class="card" aria-labelledby="forms-title">
      <h2 id="forms-title">Forms</h2>
      <ErrorMessage error={error} />
      {urns.length === 0 ? (
        <p class="muted">No forms.</p>
      ) : (
        <table class="entity-forms">
          <thead>
            <tr>
              <th scope="col">Form</th>
              <th scope="col">State</th>
              <th scope="col">Prompts answered</th>
            </tr>
          </thead>
          <tbody>
            {urns.map((urn) => {
              const info = infos.get(urn);
              const s = stateOf(forms, urn)!;
              const total = info?.prompts?.length ?? s.done + s.open;
              return (
                <tr key={urn}>
                  <th scope="row">
                    <a href={href('/form', { urn })} title={urn}>
                      {info?.name ?? shortUrn(urn)}
                    </a>
                    {info?.type === 'VERIFICATION' && <span class="muted"> (verification)</span>}
                  </th>
                  <td>
                    <span class={stateClass(s.state, info)}>{stateLabel(s.state, info)}</span>
                  </td>
                  <td>
                    {s.done} of {total}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
