// The demo's wait table is the steady state's: requests begun in a process's start-up are summed up apart.
import { describe, expect, it } from 'vitest';
import type { Priority } from '@core/rate-limit-contract';
import { DEMO_HELP } from '../src/help.js';
import { START_UP_MS, waitRecorder } from '../src/run-workers.js';
import { classWaitSummary, startUpLine } from '../src/summary-table.js';

const attempt = (priority: Priority, waitedMs: number) => ({ priority, waitedMs, request: { method: 'POST', path: '/api/v3/order' } });

describe("the demo's waits and its processes' start-up", () => {
  it('an attempt goes apart when it began in the first START_UP_MS, whenever it was sent', () => {
    let t = 50_000;
    const recorder = waitRecorder(() => t);
    t += 300;
    recorder.add(attempt('critical', 150)); // began 150 ms in
    t += START_UP_MS;
    recorder.add(attempt('normal', 1_200)); // began 100 ms in, sent after the start-up
    recorder.add(attempt('critical', 4)); // began 1296 ms in
    t = 50_000 + START_UP_MS + 1;
    recorder.add(attempt('critical', 2)); // began in the start-up's last millisecond
    recorder.add(attempt('critical', 1)); // began as it ended
    expect(recorder.startUpWaits).toEqual({ 'critical\tPOST /api/v3/order': [150, 2], 'normal\tPOST /api/v3/order': [1_200] });
    expect(recorder.waits).toEqual({ 'critical\tPOST /api/v3/order': [4, 1] });
  });

  it('the line under the table counts each class left out and its longest wait', () => {
    const rows = classWaitSummary({ 'critical\tPOST /api/v3/order': [150, 12.5], 'bulk\tGET /api/v3/depth': [300] });
    const line = startUpLine(rows, START_UP_MS);
    expect(line).toContain("each process's first 1 s");
    expect(line).toContain('critical 2 requests, longest wait 150 ms');
    expect(line).toContain('bulk 1 requests, longest wait 300 ms');
    expect(startUpLine([], START_UP_MS)).toBeUndefined();
    // the start-up's own summary lists every kind of request, even a class's only one
    expect(classWaitSummary({ 'critical\tDELETE /api/v3/order': [3] }, true).map((r) => r.request)).toEqual(['all', 'DELETE /api/v3/order']);
    expect(classWaitSummary({ 'critical\tDELETE /api/v3/order': [3] }).map((r) => r.request)).toEqual(['all']);
    expect(DEMO_HELP).toContain("after each process's\n                 first second");
  });
});
