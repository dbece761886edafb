import { PRODUCTS_MAX_PAGE } from '../assumptions';
import type { RequestOptions } from '../core/options';
import { listPages, type PagePromise, pageContent } from '../core/pagination';
import { hashOrContent } from '../core/pagination/guards';
import type { APIPromise } from '../core/transport/api-promise';
import { route } from '../core/transport/path';
import {
  type Product,
  type ProductListParams,
  ProductListParamsSchema,
  ProductListResponseSchema,
  ProductSchema,
} from '../schemas/product';
import { envelopedOrBare } from '../schemas/response-fields';
import { APIResource } from './resource';

// Read bare, as spec §4 shows, or under `data` (`envelopedOrBare` says why).
const productAnswerSchema = envelopedOrBare(ProductSchema);

/** Products: read one, list them page by page (spec §4.9, §4.10). */
export class Products extends APIResource {
  /**
   * Reads one product: `GET /products/{productHash}`.
   *
   * @throws {NotFoundError} no product has that hash.
   * @example
   * ```ts
   * const product = await client.products.retrieve('prd_123');
   * console.log(product.name, product.status);
   * ```
   */
  retrieve(productHash: string, options?: RequestOptions): APIPromise<Product> {
    return this._client.get(
      route`/products/${{ productHash }}`,
      { operation: 'products.retrieve', schema: productAnswerSchema },
      options,
    );
  }

  /**
   * Lists products: `GET /products` (`page` 1 to 999, `per_page` 1 to 50). `await` gives the first
   * page; `for await` walks every product of every page, fetching pages as it goes.
   *
   * @throws {RequestValidationError} `page` or `per_page` out of range (nothing is sent).
   * @example
   * ```ts
   * const page = await client.products.list({ per_page: 50 });
   * console.log(page.pagination.total);
   *
   * for await (const product of client.products.list({ per_page: 50 })) {
   *   console.log(product.hash, product.name);
   * }
   * ```
   */
  list(params: ProductListParams = {}, options?: RequestOptions): PagePromise<Product> {
    return listPages(
      params,
      { maxPage: PRODUCTS_MAX_PAGE, key: hashOrContent },
      (paramsOfPage, page) =>
        this._client
          .get(
            route`/products`,
            {
              operation: 'products.list',
              params: { value: paramsOfPage, schema: ProductListParamsSchema, sendAs: 'query' },
              schema: ProductListResponseSchema,
            },
            options,
          )
          ._map((body) => pageContent(body.data, body.meta, page)),
    );
  }
}
