/** The one response shape of the service, success or failure. */
export interface Envelope<T = unknown> {
  success: boolean;
  message: string;
  data: T;
}

export const envelope = <T>(success: boolean, message: string, data: T): Envelope<T> => ({
  success,
  message,
  data,
});
