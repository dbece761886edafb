/**
 * zod's schema compiler, on its own so that it loads as a chunk of its own (`compiled` in
 * `index.ts` imports it on demand): a partner's bundle and a cold import carry none of it until a
 * client first checks a response.
 */

export { compile } from 'zod/mini';
