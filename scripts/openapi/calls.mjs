// What each resource method asks of its requester, recorded by calling the method itself: the
// HTTP method, the path template of its `route`, its operation name, its params (schema and
// `sendAs`) and its response schema. The document is derived from these, so a new method appears
// in it with no row to write. Calling the real method, rather than reading its source, keeps every
// path the SDK builds at run time (a path from src/assumptions.ts) exactly as the SDK builds it.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_ASSUMPTIONS } from '../../src/assumptions.ts';
import { APIResource } from '../../src/resources/resource.ts';

/** Thrown by the recording requester once a call is recorded: nothing is ever sent. */
const RECORDED = Symbol('recorded');

/** A requester (src/resources/resource.ts) that records the call it is asked for, then stops. */
function recordingRequester(recorded) {
  const record = (method) => (where, endpoint) => {
    recorded.push({ method, ...(typeof where === 'string' ? { path: where } : where), endpoint });
    throw RECORDED;
  };
  return {
    assumptions: DEFAULT_ASSUMPTIONS,
    get: record('GET'),
    post: record('POST'),
    put: record('PUT'),
    // `call` serves the calls whose path is only known when they run (a download's URL, a
    // reading of another operation's endpoint): none of them is an operation of its own.
    call: () => {
      throw RECORDED;
    },
  };
}

/** The resource classes of `dir` (each file's exported `APIResource`s), by namespace (`products`). */
async function resourceClasses(dir) {
  const classes = {};
  for (const name of readdirSync(dir).filter((file) => file.endsWith('.ts'))) {
    const module = await import(pathToFileURL(join(dir, name)).href);
    for (const [exported, value] of Object.entries(module)) {
      if (!(value?.prototype instanceof APIResource)) continue;
      classes[exported.replace(/^./, (c) => c.toLowerCase())] = value;
    }
  }
  return classes;
}

/**
 * Calls `namespace.method` with placeholder arguments and returns the call it asked for, with the
 * placeholder it was given for each parameter. A list method is awaited, so it loads its first
 * page; the recorder stops it there.
 */
async function recordOne(classes, sdkMethod, params) {
  const [namespace, method] = sdkMethod.split('.');
  const recorded = [];
  const resource = new classes[namespace](recordingRequester(recorded));
  const args = params.map(({ name }) => (name === 'options' ? undefined : {}));
  try {
    const result = resource[method](...args);
    if (typeof result?.then === 'function') await result.then(undefined, () => undefined);
  } catch (error) {
    if (error !== RECORDED) throw error;
  }
  return recorded.length === 1 ? { ...recorded[0], args } : undefined;
}

/**
 * The call of each method of `methods` (from `resourceMethods`) that sends one through the
 * requester, in file and method order: `{ sdkMethod, method, path, pathParams, endpoint, args }`.
 * The recorded `endpoint.operation` must be the method's own name, so that a method serving
 * another's endpoint can never document it under the wrong name.
 */
export async function recordCalls(dir, methods) {
  const classes = await resourceClasses(dir);
  const calls = [];
  for (const [sdkMethod, { params, sends }] of Object.entries(methods)) {
    if (!sends) continue;
    const call = await recordOne(classes, sdkMethod, params);
    if (call?.endpoint.operation !== sdkMethod) {
      throw new Error(
        `openapi: ${sdkMethod} did not record its own call (got ${call?.endpoint.operation})`,
      );
    }
    calls.push({ sdkMethod, ...call });
  }
  return calls;
}
