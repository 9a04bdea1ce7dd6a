import { describe, expect, it } from 'vitest';
import { readPath, requestParams } from '../src/request-params.js';

describe('request parameters: dotted names', () => {
  it('reach into a JSON object or array held as text (a form field carrying JSON)', () => {
    const batch = [{ order: 'send' }, { order: 'cancel' }];
    const params = requestParams({ method: 'POST', path: '/x', body: `json=${encodeURIComponent(JSON.stringify({ batchOrder: batch }))}` }, {});
    expect(params.get('json.batchOrder')).toEqual(batch);
    expect(readPath({ a: '[{"b":1},{"b":2}]' }, 'a.b')).toEqual([1, 2]);
  });

  it('leave other text alone', () => {
    expect(readPath({ a: 'plain' }, 'a.b')).toBeUndefined();
    expect(readPath({ a: '{not json' }, 'a.b')).toBeUndefined();
    expect(readPath({ a: '{"b":1}' }, 'a')).toBe('{"b":1}');
  });
});
