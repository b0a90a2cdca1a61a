/**
 * A value made on first use, then kept. For what is dear to make and not needed by a start: the first
 * `Intl` date format of a process loads ICU's time-zone and locale data (15–25 ms), which a restart
 * would otherwise pay before it is ready (docs/performance.md).
 */
export function lazily<T>(make: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value as T;
  };
}
