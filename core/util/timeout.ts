/** The one way the library bounds a promise in time. */

/**
 * `promise`, or the error `onTimeout` makes once `ms` have passed (whichever comes first); the timer never keeps
 * the process alive and is cleared as soon as the race is decided.
 */
export async function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
    timer.unref();
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
