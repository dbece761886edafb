// One of two files Jest runs in parallel workers (`--maxWorkers=2`): see kits.cjs.
const { refundOnTwoKits } = require('./kits.cjs');

test('two kits listening at once keep their refunds apart, and close', refundOnTwoKits);
test('a fresh pair of kits in the next test starts afresh', refundOnTwoKits);
