import fs from 'node:fs';

export interface LogCapture {
  /** Everything written to stdout since `captureStdout()`. */
  text(): string;
  /** Puts the real writers back. */
  restore(): void;
}

const asText = (data: unknown): string =>
  typeof data === 'string'
    ? data
    : Buffer.isBuffer(data) || data instanceof Uint8Array
      ? Buffer.from(data).toString('utf8')
      : String(data);

/**
 * Captures what the service logs: pino writes to fd 1 through sonic-boom (`fs.write` /
 * `fs.writeSync`), Nest's console logger through `process.stdout.write`. Writes to other file
 * descriptors go through untouched.
 */
export function captureStdout(): LogCapture {
  const captured: string[] = [];
  const stdoutFd = process.stdout.fd ?? 1;
  const realWrite = fs.write;
  const realWriteSync = fs.writeSync;
  const spies = [
    jest
      .spyOn(fs, 'writeSync')
      .mockImplementation((fd: number, data: unknown, ...rest: unknown[]) => {
        if (fd !== stdoutFd) return (realWriteSync as (...a: unknown[]) => number)(fd, data, ...rest);
        const text = asText(data);
        captured.push(text);
        return Buffer.byteLength(text);
      }),
    jest.spyOn(fs, 'write').mockImplementation((fd: number, data: unknown, ...rest: unknown[]) => {
      if (fd !== stdoutFd) return (realWrite as (...a: unknown[]) => void)(fd, data, ...rest);
      const text = asText(data);
      captured.push(text);
      const callback = rest.find((r) => typeof r === 'function') as
        | ((e: null, n: number) => void)
        | undefined;
      process.nextTick(() => callback?.(null, Buffer.byteLength(text)));
    }),
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
      captured.push(asText(chunk));
      return true;
    }),
  ];
  return {
    text: () => captured.join(''),
    restore: () => spies.forEach((spy) => spy.mockRestore()),
  };
}
