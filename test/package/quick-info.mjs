// What a partner's IDE shows over the installed package (issue 14): the TypeScript language
// service of the consumer project, over the packed `partner-sdk`, asked for the quick info at a
// few places of a file, as an editor asks when the cursor rests there. Run by
// scripts/test-runtimes.mjs inside that project; exits 1 naming every expectation it missed.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const ts = createRequire(join(process.cwd(), 'package.json'))('typescript');

const file = join(process.cwd(), 'quick-info.ts');
const code = `import { PartnerClient, type OfferUpdateParams } from 'partner-sdk';
import { createWebhookHandler } from 'partner-sdk/webhooks';
const client = new PartnerClient({ baseUrl: 'https://partner.example.com/api/v1', clientToken: 't' });
const seller = client.forUser('public-token');
const productPage = client.products.list();
const product = client.products.retrieve('prd_1');
const finalRefund = seller.refunds.requestAndWait('trx_1');
const accepted = seller.refunds.request('trx_1', { reason: 'Customer asked' });
const profile = seller.users.update({ name: 'Ana Souza', cpf: '123.456.789-09', birth: '1990-04-01', address: { zip_code: '01310-100', city: 'São Paulo', state: 'SP', country: 'BR', street: 'Av. Paulista', street_number: '1000', neighborhood: 'Bela Vista' } });
const params: OfferUpdateParams = { price: 4990 };
export async function read() {
  const offer = await seller.offers.update('prd_1', 'off_1', params);
  return offer.price;
}
export { productPage, product, finalRefund, accepted, profile };
export const handler = createWebhookHandler({
  on: {
    subscription_ended: async (event) => {
      console.log(event.payload.end_reason);
    },
    bank_account_updated: async (bankEvent) => {
      console.log(bankEvent.payload.status);
    },
  },
});
`;
writeFileSync(file, code);

const options = {
  strict: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  types: ['node'],
  skipLibCheck: true,
};
const host = {
  getScriptFileNames: () => [file],
  getScriptVersion: () => '1',
  getScriptSnapshot: (name) => {
    const text = name === file ? code : ts.sys.readFile(name);
    return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
  },
  getCurrentDirectory: () => process.cwd(),
  getCompilationSettings: () => options,
  getDefaultLibFileName: (settings) => ts.getDefaultLibFilePath(settings),
  fileExists: ts.sys.fileExists,
  readFile: ts.sys.readFile,
  readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
};
const service = ts.createLanguageService(host);

/** The quick info at the first character of `marker`'s `nth` occurrence: its signature and its docs. */
function quickInfo(marker, nth = 1) {
  let at = -1;
  for (let i = 0; i < nth; i++) at = code.indexOf(marker, at + 1);
  const info = service.getQuickInfoAtPosition(file, at);
  return {
    display: ts.displayPartsToString(info?.displayParts),
    docs: ts.displayPartsToString(info?.documentation),
  };
}

const missed = [];
function expectInfo(what, { display, docs }, check) {
  const problem = check(display, docs);
  if (problem) missed.push(`${what}: ${problem}\n    shown: ${display}\n    docs: ${docs}`);
}
// Short and named: the type's name, never an expanded object literal.
const named = (name) => (display) =>
  !display.includes(name)
    ? `does not name ${name}`
    : display.includes('{') || display.length > 160
      ? 'expands an object literal or runs long'
      : undefined;

expectInfo('products.list() result', quickInfo('productPage'), named('PagePromise<Product>'));
expectInfo('products.retrieve() result', quickInfo('product ='), named('APIPromise<Product>'));
expectInfo(
  'refunds.requestAndWait() result',
  quickInfo('finalRefund'),
  named('Promise<RefundStatus>'),
);
// A method's own hover: its parameters and its result by name, no zod machinery (`output<…>`).
const signature =
  (...names) =>
  (display) => {
    const missing = names.filter((name) => !display.includes(name));
    if (missing.length) return `does not name ${missing.join(', ')}`;
    if (display.includes('{') || /output<|infer<|Zod/.test(display)) return 'expands its types';
    return undefined;
  };
expectInfo(
  'client.products.list',
  quickInfo('list()'),
  signature('params?: ProductListParams', 'PagePromise<Product>'),
);
expectInfo(
  'seller.refunds.request',
  quickInfo('request('),
  signature('params?: RefundRequestParams', 'APIPromise<RefundRequestResult>'),
);
expectInfo(
  'seller.offers.update',
  quickInfo('update(', 2),
  signature('params: OfferUpdateParams', 'APIPromise<Offer>'),
);
expectInfo(
  'seller.users.update',
  quickInfo('update('),
  signature('params: UserUpdateParams', 'APIPromise<User>'),
);
expectInfo('refunds.request() result', quickInfo('accepted ='), named('RefundRequestResult'));

expectInfo('param field price', quickInfo('price: 4990'), (_, docs) =>
  /cents/i.test(docs) ? undefined : 'carries no documentation in cents',
);
expectInfo('response field offer.price', quickInfo('price;'), (_, docs) =>
  /cents/i.test(docs) ? undefined : 'carries no documentation in cents',
);

// A webhook handler's event hovers as its named interface, short, and its fields carry the spec's notes.
const short = (name) => (display) =>
  !display.includes(name)
    ? `does not name ${name}`
    : display.length >= 200
      ? `runs to ${display.length} characters`
      : display.includes('{')
        ? 'expands an object literal'
        : undefined;
expectInfo('webhook handler event', quickInfo('event) =>'), short('SubscriptionEndedEvent'));
expectInfo(
  'webhook handler bank event',
  quickInfo('bankEvent) =>'),
  short('BankAccountUpdatedEvent'),
);
expectInfo('webhook field payload.end_reason', quickInfo('end_reason)'), (_, docs) =>
  /delinquency/.test(docs) ? undefined : 'carries no documentation from spec §6.1',
);
expectInfo('webhook field payload.status', quickInfo('status);'), (_, docs) =>
  /approved/.test(docs) ? undefined : 'carries no documentation from spec §2.4',
);

const errors = service
  .getSemanticDiagnostics(file)
  .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
if (errors.length) missed.push(`the file does not type-check: ${errors.join('; ')}`);

if (missed.length) {
  console.error(missed.join('\n'));
  process.exit(1);
}
console.log('quick info names the types and carries the field notes');
