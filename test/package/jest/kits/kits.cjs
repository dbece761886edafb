// What each file of the `kits` Jest suite does, in a worker of its own: two kits listening at
// once, the same seeded refund accepted on each (neither sees the other's), their seeded data
// alike, and both closed, so the worker has nothing left open when its file ends.
const assert = require('node:assert');
const { PartnerClient } = require('partner-sdk');
const { createMockPartnerApi } = require('partner-sdk/testing');

async function refundOnTwoKits() {
  const kits = [createMockPartnerApi(), createMockPartnerApi()];
  const servers = await Promise.all(kits.map((mock) => mock.listen()));
  try {
    assert.notStrictEqual(servers[0].url, servers[1].url);
    for (const [i, mock] of kits.entries()) {
      const client = new PartnerClient({
        baseUrl: servers[i].url,
        ...mock.credentials,
        logLevel: 'off',
      });
      const seller = client.forUser(mock.sellers.person.publicToken);
      const result = await seller.refunds.request(mock.transactions.refundable[0]);
      assert.strictEqual(result.kind, 'accepted');
    }
    assert.deepStrictEqual(kits[0].products, kits[1].products);
    assert.deepStrictEqual(kits[0].transactions, kits[1].transactions);
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
}

module.exports = { refundOnTwoKits };
