import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { ErrorMessage } from './common';

/**
 * A modal confirmation (the browser's `<dialog>`: focus stays inside, Escape cancels). Nothing
 * happens until the confirm button is pressed.
 */
export function ConfirmDialog(props: {
  title: string;
  children: ComponentChildren;
  confirm: string;
  danger?: boolean;
  busy?: boolean;
  /** The confirm button is disabled (e.g. while something is being counted). */
  disabled?: boolean;
  error?: unknown;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      class="property-dialog"
      aria-labelledby="property-dialog-title"
      onCancel={(e) => {
        e.preventDefault();
        props.onCancel();
      }}
    >
      <h2 id="property-dialog-title">{props.title}</h2>
      {props.children}
      <ErrorMessage error={props.error} />
      <div class="row">
        <button type="button" class={props.danger ? 'danger' : undefined} disabled={props.busy || props.disabled} onClick={props.onConfirm}>
          {props.confirm}
        </button>
        <button type="button" class="secondary" disabled={props.busy} onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
