/**
 * Products: spec §2.5 (the resource), §2.13 (list `meta`), §4.9 and §4.10 (read and list).
 *
 * @module
 */

import * as z from 'zod/mini';
import { integer, optional, paramsObject } from './request-rules';
import {
  BOOLEAN,
  INTEGER,
  maybe,
  NUMBER,
  type OpenEnum,
  openEnum,
  responseObject,
  STRING,
} from './response-fields';

// ---------------------------------------------------------------------------------------------
// Types: the documentation a partner reads (hover, reference). The schemas below are proven to
// infer exactly these types (test/types/schemas-match.test-d.ts).
// ---------------------------------------------------------------------------------------------

/**
 * Review state of a product (spec §2.5, §3): `draft`, `pre-approved`, `approved`, `pending`,
 * `pending-correction` (changes asked by the platform), `reproved` (refused). Transitions: not
 * shown. Open: a value the service adds later passes.
 */
export type ProductStatus = OpenEnum<
  'draft' | 'pre-approved' | 'approved' | 'pending' | 'pending-correction' | 'reproved'
>;

/** Kind of product (spec §2.5): `course`, `ebook` or `physical`. Open: a new kind passes. */
export type ProductType = OpenEnum<'course' | 'ebook' | 'physical'>;

/**
 * How affiliate commission is attributed (spec §2.5): `first` (first click), `last` (last click)
 * or `multi` (split between the first and the last click, see `first_click_percentage`).
 */
export type AffiliateCommissionType = OpenEnum<'first' | 'last' | 'multi'>;

/** Sales-page settings of a product (`metadata.links`, spec §2.5). Every field may be absent or `null`. */
export interface ProductLinks {
  /** URL of the product's sales page. Absent or `null` when there is none. Spec §2.5. */
  sales_page_url?: string | null;
  /** Why the product has no sales page (free text). Absent or `null` when not given. Spec §2.5. */
  sales_page_absence_reason?: string | null;
  /** Page-released marker (a string; its values: not shown). Absent or `null` when not set. Spec §2.5. */
  page_released?: string | null;
  /** `true` when the product is sold without a sales page. Absent or `null` when not set. Spec §2.5. */
  without_sales_page?: boolean | null;
}

/** Extra data of a product (`metadata`, spec §2.5). */
export interface ProductMetadata {
  /** Sales-page settings. Absent or `null` when the service sends none. Spec §2.5. */
  links?: ProductLinks | null;
}

/**
 * A product (spec §2.5), as `products.retrieve` and `products.list` return it. `hash` is always
 * there; every other field may be absent or `null` (a Laravel service sends `null` for empty
 * columns). Keys the spec does not document are kept at run time but not typed.
 */
export interface Product {
  /** Unique product hash: its identity, used in `products.retrieve` and `offers.update`. Always present. Spec §2.5. */
  hash: string;
  /** Product name. Absent or `null` when the service leaves it empty. Spec §2.5. */
  name?: string | null;
  /** Category id, an integer from 1 to 999999. Absent or `null` when not set. Spec §2.5. */
  category_id?: number | null;
  /** Description (free text). Absent or `null` when empty. Spec §2.5. */
  description?: string | null;
  /** Kind of product: `course`, `ebook` or `physical`. Absent or `null` when not set. Spec §2.5. */
  type?: ProductType | null;
  /** Support e-mail address shown to buyers. Absent or `null` when not set. Spec §2.5. */
  support_email?: string | null;
  /** Support phone number, digits only, at most 20. Absent or `null` when not set. Spec §2.5. */
  support_phone?: string | null;
  /** Days the buyer has to ask for a refund: 7, 15 or 30. Absent or `null` when not set. Spec §2.5. */
  refund_deadline?: number | null;
  /**
   * Review state: `draft`, `pre-approved`, `approved`, `pending`, `pending-correction` or
   * `reproved` (see {@link ProductStatus}). Absent or `null` when not sent. Spec §2.5, §3.
   */
  status?: ProductStatus | null;
  /**
   * Creation time, `YYYY-MM-DD HH:mm:ss` without an offset (read it with `parseTimestamp`, in
   * `America/Sao_Paulo` by default). Absent or `null` when not sent. Spec §2.5.
   */
  created_at?: string | null;
  /** Last update time, `YYYY-MM-DD HH:mm:ss` (read it with `parseTimestamp`). Absent or `null` when not sent. Spec §2.5. */
  updated_at?: string | null;
  /** Text on the buyer's card statement, at most 13 characters. Absent or `null` when not set. Spec §2.5, §8. */
  soft_descriptor?: string | null;
  /** URL of the warranty document; required by the service for physical products. Absent or `null` otherwise. Spec §2.5. */
  image_stock?: string | null;
  /** URL of the cover image (optional). Absent or `null` when there is none. Spec §2.5. */
  cover_picture?: string | null;
  /** Whether the product is active (on sale). Absent or `null` when not sent. Spec §2.5. */
  is_active?: boolean | null;
  /** Whether affiliates are accepted automatically. Absent or `null` when not sent. Spec §2.5. */
  has_auto_affiliation?: boolean | null;
  /** Whether affiliation is allowed at product level. Absent or `null` when not sent. Spec §2.5. */
  allow_affiliation?: boolean | null;
  /**
   * How affiliate commission is attributed: `first` (first click), `last` (last click) or `multi`
   * (split). Absent or `null` when not set. Spec §2.5.
   */
  affiliate_commission_type?: AffiliateCommissionType | null;
  /** Percentage of the commission that goes to the first click (with `multi`). Absent or `null` otherwise. Spec §2.5. */
  first_click_percentage?: number | null;
  /** Percentage of the commission that goes to the last click (with `multi`). Absent or `null` otherwise. Spec §2.5. */
  last_click_percentage?: number | null;
  /** Extra data; `links` holds the sales-page settings. Absent or `null` when not sent. Spec §2.5. */
  metadata?: ProductMetadata | null;
}

/** Pagination of the product list (`meta`, spec §2.13): integers, each may be absent or `null`. */
export interface ProductListMeta {
  /** Number of this page, from 1. Absent or `null` when not sent. Spec §2.13. */
  current_page?: number | null;
  /** Number of the last page. Absent or `null` when not sent (the walk then stops here). Spec §2.13. */
  last_page?: number | null;
  /** Products per page. Absent or `null` when not sent. Spec §2.13. */
  per_page?: number | null;
  /** Products in the whole list. Absent or `null` when not sent. Spec §2.13. */
  total?: number | null;
}

/** The body of `GET /products` (spec §4.10). `products.list` turns it into a `Page`. */
export interface ProductListResponse {
  /** The products of this page. Always present. Spec §4.10. */
  data: Product[];
  /** Pagination. Absent or `null` when the service sends none. Spec §2.13. */
  meta?: ProductListMeta | null;
}

/**
 * Query of `products.list` (`GET /products`, spec §4.10). Both optional; the service's defaults
 * are not shown, and the SDK sends none of its own.
 */
export interface ProductListParams {
  /** Page to start from: an integer from 1 to 999. Spec §4.10, §8. */
  page?: number;
  /** Products per page: an integer from 1 to 50. Spec §4.10, §8. */
  per_page?: number;
}

/**
 * Query of `products.list`.
 *
 * @deprecated Renamed {@link ProductListParams}.
 */
export type ListProductsParams = ProductListParams;

// ---------------------------------------------------------------------------------------------
// Schemas: the run-time truth (field notes: see the types above)
// ---------------------------------------------------------------------------------------------

/** Schema of {@link ProductLinks}. */
export const ProductLinksSchema = responseObject({
  sales_page_url: maybe(STRING),
  sales_page_absence_reason: maybe(STRING),
  page_released: maybe(STRING),
  without_sales_page: maybe(BOOLEAN),
});

/** Schema of {@link ProductMetadata}. */
export const ProductMetadataSchema = responseObject({ links: maybe(ProductLinksSchema) });

/** Schema of {@link Product}: only `hash` is required. */
export const ProductSchema = responseObject({
  hash: STRING,
  name: maybe(STRING),
  category_id: maybe(INTEGER),
  description: maybe(STRING),
  type: maybe(openEnum(['course', 'ebook', 'physical'])),
  support_email: maybe(STRING),
  support_phone: maybe(STRING),
  refund_deadline: maybe(INTEGER),
  status: maybe(
    openEnum(['draft', 'pre-approved', 'approved', 'pending', 'pending-correction', 'reproved']),
  ),
  created_at: maybe(STRING),
  updated_at: maybe(STRING),
  soft_descriptor: maybe(STRING),
  image_stock: maybe(STRING),
  cover_picture: maybe(STRING),
  is_active: maybe(BOOLEAN),
  has_auto_affiliation: maybe(BOOLEAN),
  allow_affiliation: maybe(BOOLEAN),
  affiliate_commission_type: maybe(openEnum(['first', 'last', 'multi'])),
  first_click_percentage: maybe(NUMBER),
  last_click_percentage: maybe(NUMBER),
  metadata: maybe(ProductMetadataSchema),
});

/** Schema of {@link ProductListMeta}. */
export const ProductListMetaSchema = responseObject({
  current_page: maybe(INTEGER),
  last_page: maybe(INTEGER),
  per_page: maybe(INTEGER),
  total: maybe(INTEGER),
});

/** Schema of {@link ProductListResponse}. */
export const ProductListResponseSchema = responseObject({
  data: z.array(ProductSchema),
  meta: maybe(ProductListMetaSchema),
});

/** Schema of {@link ProductListParams}: `page` 1 to 999, `per_page` 1 to 50. */
export const ProductListParamsSchema = paramsObject({
  page: optional(integer({ min: 1, max: 999 })),
  per_page: optional(integer({ min: 1, max: 50 })),
});
