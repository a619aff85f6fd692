import { Fragment, type ComponentChildren } from 'preact';
import { ApiError } from '../api';

/**
 * A refusal or failure, announced to screen readers: in words when errors.ts knows the message
 * (else the server's own, without its status), with the status and server's message under "Details"; `id` lets a form tie the input at fault to it.
 */
export function ErrorMessage({ error, id }: { error: unknown; id?: string }) {
  if (!error) return null;
  // Known or not, the sentence leads; the status is for Details (a "400: " prefix tells a person nothing).
  if (error instanceof ApiError) {
    return (
      <div class="error-box" role="alert" id={id}>
        <p class="error">{error.message}</p>
        <details class="error-details">
          <summary>Details</summary>
          <code>{error.status ? `${error.status}: ${error.details}` : error.details}</code>
        </details>
      </div>
    );
  }
  const text = error instanceof Error ? error.message : String(error);
  return (
    <p class="error" role="alert" id={id}>
      {text}
    </p>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p class="muted" role="status">
      {label}
    </p>
  );
}

/** Any JSON, pretty-printed as text (never as markup). */
export function Json({ value }: { value: unknown }) {
  return <pre class="json">{JSON.stringify(value, null, 2)}</pre>;
}

export function Section({ title, children, id }: { title: string; children: ComponentChildren; id?: string }) {
  return (
    <section class="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** The actor urnbase records for what it writes itself (DataHub's system user). */
export const SYSTEM_ACTOR = 'urn:li:corpuser:__datahub_system';

/** An actor as people read it: a user by name (`jdoe`), the system by what it was (`systemLabel`). */
export function actorName(actor: string, systemLabel: string): string {
  return actor === SYSTEM_ACTOR ? systemLabel : actor.replace(/^urn:li:corpuser:/, '');
}

/** The readable part of a URN: `urn:li:tag:pii` → `pii`, a dataset's name. */
export function shortUrn(urn: string): string {
  const id = urn.replace(/^urn:li:[^:]+:/, '');
  const dataset = /^\(urn:li:dataPlatform:([^,]+),(.+),([A-Z]+)\)$/.exec(id);
  return dataset ? dataset[2] : id;
}

/** A time in milliseconds as `2024-05-01 12:00:00 UTC`; a dash when there is none. */
export function when(time: number | undefined): string {
  return typeof time === 'number' && Number.isFinite(time) && time > 0 && time <= 8.64e15 ? `${new Date(time).toISOString().replace('T', ' ').slice(0, 19)} UTC` : '—';
}

/**
 * A long name that may wrap after its separators (`marts.order_facts_by_<wbr>segment`) rather than
 * anywhere inside a word.
 */
export function Breakable({ text }: { text: string }) {
  const parts = text.split(/(?<=[._/:,])/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
