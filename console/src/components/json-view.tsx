import type { ComponentChildren } from 'preact';

/**
 * JSON as DataHub's model writes it, made readable: a union member's key
 * (`{"com.linkedin.schema.StringType": {}}`) is shown by its short name (`StringType`), the full
 * name in a tooltip. Everything else is laid out exactly as `JSON.stringify(value, null, 2)`.
 */

/** A Pegasus record's full name: lower-case namespace segments, then the record's name. */
const RECORD_NAME = /^(?:[a-z][a-z0-9_]*\.)+([A-Z][A-Za-z0-9_]*)$/;

/** `com.linkedin.schema.StringType` → `StringType`; any other text as it is. */
export function shortTypeName(name: string): string {
  return RECORD_NAME.exec(name)?.[1] ?? name;
}

/** A union value in Rest.li's JSON form: an object whose one key is a record's full name. */
export function unionMember(value: unknown): { name: string; value: unknown } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 1 || !RECORD_NAME.test(keys[0])) return undefined;
  return { name: keys[0], value: (value as Record<string, unknown>)[keys[0]] };
}

/** Pretty-printed JSON with short union names; `full` shows the names as stored. */
export function JsonView({ value, full = false }: { value: unknown; full?: boolean }) {
  // Focusable: a long value scrolls, and a keyboard must reach it.
  if (full) return <pre class="json" tabIndex={0}>{JSON.stringify(value, null, 2)}</pre>;
  const out: ComponentChildren[] = [];
  let text = '';
  const emit = (s: string) => {
    text += s;
  };
  const emitKey = (key: string) => {
    const short = shortTypeName(key);
    if (short === key) return emit(`${JSON.stringify(key)}: `);
    emit('"');
    out.push(text);
    text = '';
    out.push(
      <abbr key={out.length} title={key}>
        {short}
      </abbr>,
    );
    emit('": ');
  };
  const walk = (v: unknown, indent: string) => {
    if (Array.isArray(v)) {
      if (v.length === 0) return emit('[]');
      emit('[\n');
      v.forEach((item, i) => {
        emit(`${indent}  `);
        walk(item === undefined ? null : item, `${indent}  `);
        emit(i < v.length - 1 ? ',\n' : '\n');
      });
      return emit(`${indent}]`);
    }
    if (typeof v === 'object' && v !== null) {
      const entries = Object.entries(v).filter(([, x]) => x !== undefined);
      if (entries.length === 0) return emit('{}');
      emit('{\n');
      const union = unionMember(v) !== undefined;
      entries.forEach(([key, item], i) => {
        emit(`${indent}  `);
        if (union) emitKey(key);
        else emit(`${JSON.stringify(key)}: `);
        walk(item, `${indent}  `);
        emit(i < entries.length - 1 ? ',\n' : '\n');
      });
      return emit(`${indent}}`);
    }
    emit(JSON.stringify(v) ?? 'null');
  };
  walk(value, '');
  out.push(text);
  return (
    <pre class="json" tabIndex={0}>
      {out}
    </pre>
  );
}
