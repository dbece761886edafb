/**
 * `schemas-match.test-d.ts` pairs each exported schema with its named type by hand, one line per
 * schema: this holds that list to every schema the package exports, so that a schema added
 * without its line fails here instead of going unchecked.
 */

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as sdk from '../../src/index';

describe('the schema/type pairs of schemas-match.test-d.ts', () => {
  const pairs = readFileSync(new URL('./schemas-match.test-d.ts', import.meta.url), 'utf8');
  const exported = Object.keys(sdk).filter((name) => name.endsWith('Schema'));

  it('cover every exported schema', () => {
    expect(exported.length).toBeGreaterThan(40);
    expect(exported.filter((name) => !pairs.includes(`typeof sdk.${name}>`))).toEqual([]);
  });
});
