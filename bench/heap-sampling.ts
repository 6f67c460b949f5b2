/**
 * Preloaded (`-r`) into a service process by `npm run bench:alloc`: on SIGWINCH (which Nest's
 * shutdown hooks leave alone) starts V8's sampling heap profiler, counting objects collected since
 * too, so its total is what the process allocated rather than what it still holds; at exit writes
 * the profile to HEAP_SAMPLES_OUT.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const session = new Session();
session.connect();
session.post('HeapProfiler.enable');
process.on('SIGWINCH', () => {
  session.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
});
process.on('exit', () => {
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (!error && process.env.HEAP_SAMPLES_OUT)
      writeFileSync(process.env.HEAP_SAMPLES_OUT, JSON.stringify(result.profile));
  });
});
