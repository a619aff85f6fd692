/** urnbase's answer for a route it does not have (api/errors.ts), DataHub's wording too: the reason, or undefined. */
export function unserved(answer: { status: number; body: string }): string | undefined {
  if (answer.status !== 404) return undefined;
  try {
    const error = (JSON.parse(answer.body) as { error?: unknown }).error;
    return typeof error === 'string' && error.startsWith('No endpoint ') ? error : undefined;
  } catch {
    return undefined;
  }
}
