// A Cloudflare Worker running a bulk job from `partner-sdk/bulk`. That entry point loads
// `node:fs` for its file journal, so this Worker needs the `nodejs_compat` flag (run.mjs sets it);
// a job needing a durable journal on Workers passes its own JournalStore (workerd's file system
// is in memory and per request).
import { runBulk } from 'partner-sdk/bulk';

export default {
  async fetch() {
    const summary = await runBulk([1, 2, 3], { key: String, run: async (n) => n * 2 });
    return Response.json(summary);
  },
};
