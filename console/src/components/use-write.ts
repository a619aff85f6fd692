import { useEffect, useState } from 'preact/hooks';

/**
 * A write, its refusal and its confirmation; a later success clears an earlier refusal, this
 * field's or any other's on the page (the entity is read again after each).
 */
export function useWrite(onChanged: () => void, revision?: unknown) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState('');
  useEffect(() => setError(undefined), [revision]);
  const run = async (write: () => Promise<unknown>, message: string) => {
    setBusy(true);
    setError(undefined);
    setDone('');
    try {
      await write();
      setDone(message);
      onChanged();
      return true;
    } catch (e) {
      setError(e);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, done, setDone, run };
}
