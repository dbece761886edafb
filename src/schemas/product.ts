/**
 * Products: spec §2.5 (the resource), §2.13 (list `meta`), §4.9 and §4.10 (read and list).
 *
 * @module
 */

import * as z from 'zod/mini';
import { integer, optional, paramsObject } from './request-rules';
import { BOOLEAN, maybe, NUMBER, openEnum, STRING } from './response-fields';

/** Sales-page links of a product (`metadata.links`, spec §2.5). */
const ProductLinksSchema = z.looseObject({
  /** Sales page URL. */
  sales_page_url: maybe(STRING),
  /** Why the product has no sales page. */
  sales_page_absence_reason: maybe(STRING),
  /** Page released marker. */
  page_released: maybe(STRING),
  /** Whether the product has no sales page. */
  without_sales_page: maybe(BOOLEAN),
});

/** A product (spec §2.5). Only `hash` is required. */
export const ProductSchema = z.looseObject({
  /** Unique product hash. */
  hash: STRING,
  /** Product name. */
  name: maybe(STRING),
  /** Category id, integer 1 to 999999. */
  category_id: maybe(NUMBER),
  /** Description. */
  description: maybe(STRING),
  /** `course`, `ebook` or `physical`. */
  type: maybe(openEnum(['course', 'ebook', 'physical'])),
  /** Support e-mail address. */
  support_email: maybe(STRING),
  /** Support phone, digits, max 20. */
  support_phone: maybe(STRING),
  /** Refund deadline in days; allowed 7, 15, 30. */
  refund_deadline: maybe(NUMBER),
  /** `draft`, `pre-approved`, `approved`, `pending`, `pending-correction` or `reproved`. */
  status: maybe(
    openEnum(['draft', 'pre-approved', 'approved', 'pending', 'pending-correction', 'reproved']),
  ),
  /** Creation time, `YYYY-MM-DD HH:mm:ss` (read it with `parseTimestamp`). */
  created_at: maybe(STRING),
  /** Last update time, `YYYY-MM-DD HH:mm:ss` (read it with `parseTimestamp`). */
  updated_at: maybe(STRING),
  /** Text on the buyer's card statement, max 13. */
  soft_descriptor: maybe(STRING),
  /** URL of the warranty document; required for physical products. */
  image_stock: maybe(STRING),
  /** URL of the cover image. */
  cover_picture: maybe(STRING),
  /** Whether the product is active. */
  is_active: maybe(BOOLEAN),
  /** Automatic affiliation allowed. */
  has_auto_affiliation: maybe(BOOLEAN),
  /** Affiliation allowed (product level). */
  allow_affiliation: maybe(BOOLEAN),
  /** `first` (first click), `last` (last click) or `multi` (split). */
  affiliate_commission_type: maybe(openEnum(['first', 'last', 'multi'])),
  /** Commission share of the first click (multi-click). */
  first_click_percentage: maybe(NUMBER),
  /** Commission share of the last click (multi-click). */
  last_click_percentage: maybe(NUMBER),
  /** Extra data; `links` holds the sales-page settings. */
  metadata: maybe(
    z.looseObject({
      /** Sales-page settings. */
      links: maybe(ProductLinksSchema),
    }),
  ),
});
/** A product (spec §2.5). */
export type Product = z.infer<typeof ProductSchema>;

/** Pagination of the product list (`meta`, spec §2.13). */
export const ProductListMetaSchema = z.looseObject({
  /** Page number of this page. */
  current_page: maybe(NUMBER),
  /** Number of the last page. */
  last_page: maybe(NUMBER),
  /** Page size. */
  per_page: maybe(NUMBER),
  /** Total number of products. */
  total: maybe(NUMBER),
});
/** Pagination of the product list (spec §2.13). */
export type ProductListMeta = z.infer<typeof ProductListMetaSchema>;

/** The body of `GET /products` (spec §4.10): `{ data: Product[], meta }`. */
export const ProductListResponseSchema = z.looseObject({
  /** The products of this page. */
  data: z.array(ProductSchema),
  /** Pagination (spec §2.13). */
  meta: maybe(ProductListMetaSchema),
});
/** The body of `GET /products` (spec §4.10). */
export type ProductListResponse = z.infer<typeof ProductListResponseSchema>;

/** Query of `products.list` (spec §4.10): `page` 1 to 999, `per_page` 1 to 50. No defaults are sent. */
export const ListProductsParamsSchema = paramsObject({
  /** Page number, integer 1 to 999. */
  page: optional(integer({ min: 1, max: 999 })),
  /** Page size, integer 1 to 50. */
  per_page: optional(integer({ min: 1, max: 50 })),
});
/** Query of `products.list` (spec §4.10). */
export type ListProductsParams = z.input<typeof ListProductsParamsSchema>;
