/** Accepts a bare array or an object carrying the array under one of {@code keys} (shapes the API may grow into). */
export function listOf<T>(body: unknown, ...keys: string[]): T[] {
  if (Array.isArray(body)) return body as T[];
  if (body && typeof body === 'object') {
    for (const k of keys) {
      const v = (body as Record<string, unknown>)[k];
      if (Array.isArray(v)) return v as T[];
    }
  }
  return [];
}

/** A bucket width giving about {@code buckets} buckets over the period, in whole minutes (at least one). */
export function bucketMs(from: number, to: number, buckets = 60): number {
  const minute = 60_000;
  return Math.max(minute, Math.ceil((to - from) / buckets / minute) * minute);
}
