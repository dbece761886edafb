/**
 * The benchmark's loopback service, run in a child process so that its work never shares the
 * measuring process's event loop. Its bodies are written here from the spec's tables (§2.5,
 * §2.11, §2.13, §4.2), not derived from the SDK's schemas, and serialised once: a request costs the
 * server a lookup and a write.
 *
 * Started by `bench/run.ts` through `fork`; it reports its port over IPC and exits with its parent.
 */

import { createServer } from 'node:http';

const STATUSES = ['draft', 'pre-approved', 'approved', 'pending', 'pending-correction', 'reproved'];
const TYPES = ['course', 'ebook', 'physical'];
const COMMISSIONS = ['first', 'last', 'multi'];
const LOREM =
  'Curso completo de marketing digital para produtores iniciantes: do planejamento da oferta à ' +
  'primeira venda, com aulas gravadas, materiais de apoio em PDF, planilhas de acompanhamento de ' +
  'métricas, modelos de páginas de vendas e de e-mails, estudos de caso de lançamentos reais, ' +
  'encontros ao vivo mensais para tirar dúvidas, comunidade exclusiva de alunos, certificado de ' +
  'conclusão e acesso vitalício às atualizações do conteúdo. Inclui módulos sobre tráfego pago, ' +
  'SEO, redes sociais, funis de venda, precificação, afiliados, recorrência e atendimento ao ' +
  'cliente, com exercícios práticos ao final de cada aula e suporte por e-mail em até 48 horas.';

/** Spec §2.5, every documented field present (physical products carry the warranty document). */
export function product(i: number): Record<string, unknown> {
  const type = TYPES[i % 3];
  const day = String((i % 28) + 1).padStart(2, '0');
  return {
    hash: `prd_${i.toString(36).padStart(8, '0')}`,
    name: `Produto de exemplo número ${i}: formação completa em vendas online`,
    category_id: 1000 + i,
    description: LOREM,
    type,
    support_email: `suporte+${i}@produtora-exemplo.com.br`,
    support_phone: `1199${String(1_000_000 + i).padStart(7, '0')}`,
    refund_deadline: [7, 15, 30][i % 3],
    status: STATUSES[i % STATUSES.length],
    created_at: `2024-03-${day} 10:${String(i % 60).padStart(2, '0')}:00`,
    updated_at: `2025-01-${day} 18:${String(i % 60).padStart(2, '0')}:30`,
    soft_descriptor: `PRODUTO${String(i).padStart(4, '0')}`,
    image_stock:
      type === 'physical'
        ? `https://cdn.produtora-exemplo.com.br/garantias/${i}/termo-de-garantia.pdf`
        : null,
    cover_picture: `https://cdn.produtora-exemplo.com.br/capas/${i}/capa-1280x720.jpg`,
    is_active: i % 5 !== 0,
    has_auto_affiliation: i % 2 === 0,
    allow_affiliation: true,
    affiliate_commission_type: COMMISSIONS[i % 3],
    first_click_percentage: i % 3 === 2 ? 40 : null,
    last_click_percentage: i % 3 === 2 ? 60 : null,
    metadata: {
      links: {
        sales_page_url: `https://www.produtora-exemplo.com.br/produtos/${i}/pagina-de-vendas`,
        sales_page_absence_reason: null,
        page_released: '1',
        without_sales_page: false,
      },
    },
  };
}

/** Spec §2.11. */
function anticipation(i: number): Record<string, unknown> {
  const amount = 10_000 + i * 137;
  const fee = Math.round(amount * 0.035);
  return {
    hash: i % 10 === 0 ? null : `ant_${i.toString(36).padStart(10, '0')}`,
    status: 'approved',
    amount,
    fee,
    net_value: amount - fee,
    created_at: `2025-02-${String((i % 28) + 1).padStart(2, '0')}T14:${String(i % 60).padStart(2, '0')}:07-03:00`,
  };
}

/** The canned bodies, by path under `/api/v1`: a path with a query is served for that query only. */
function bodies(): Record<string, string> {
  const products = Array.from({ length: 50 }, (_, i) => product(i + 1));
  return {
    '/products': JSON.stringify({
      data: products,
      meta: { current_page: 1, last_page: 20, per_page: 50, total: 987 },
    }),
    // A list of about 5 KB, the size openai-node's cost is quoted at.
    '/products?per_page=3': JSON.stringify({
      data: products.slice(0, 3),
      meta: { current_page: 1, last_page: 329, per_page: 3, total: 987 },
    }),
    '/products/prd_0000000x': JSON.stringify(product(33)),
    '/financial/anticipation': JSON.stringify({
      status: 'success',
      message: 'Antecipações listadas com sucesso.',
      data: {
        anticipations: Array.from({ length: 100 }, (_, i) => anticipation(i + 1)),
        pagination: { current_page: 1, from: 1, per_page: 100, to: 100, total: 340, last_page: 4 },
      },
    }),
    // The status endpoint's shape is not shown (spec §4.2): the envelope with a refund-like `data`.
    '/financial/refund/tx_0001/status': JSON.stringify({
      status: 'success',
      message: 'Status do reembolso.',
      data: {
        hash: 'rfd_0001',
        transaction_hash: 'tx_0001',
        status: 'completed',
        amount: 19_790,
        observation: 'Cliente desistiu da compra dentro do prazo.',
        created_at: '05/02/2025 10:11:12',
        updated_at: '06/02/2025 08:00:00',
      },
    }),
  };
}

function main(): void {
  const canned = new Map<string, Buffer>();
  for (const [path, body] of Object.entries(bodies())) {
    canned.set(`/api/v1${path}`, Buffer.from(body));
  }
  const server = createServer((request, response) => {
    const url = request.url ?? '/';
    const query = url.indexOf('?');
    const body = canned.get(url) ?? canned.get(query === -1 ? url : url.slice(0, query));
    if (!body) {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"message":"Not found"}');
      return;
    }
    response
      .writeHead(200, {
        'content-type': 'application/json',
        'content-length': body.length,
        'cache-control': 'no-cache, private',
      })
      .end(body);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    if (address && typeof address === 'object') process.send?.({ port: address.port });
  });
  // The parent's exit closes the IPC channel: leave with it.
  process.on('disconnect', () => process.exit(0));
}

if (process.send) main();
