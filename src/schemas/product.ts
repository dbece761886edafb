/**
 * Products: spec §2.5 (the resource), §2.13 (list `meta`), §4.9 and §4.10 (read and list).
 *
 * @module
 */

import * as z from 'zod/mini';
import { described, integer, maybe, OBJECT, openEnum } from './common';

/** Sales-page links of a product (`metadata.links`, spec §2.5). */
const ProductLinksSchema = z.looseObject({
  /** Sales page URL. */
  sales_page_url: maybe(z.string(), 'Sales page URL.'),
  /** Why the product has no sales page. */
  sales_page_absence_reason: maybe(z.string(), 'Why the product has no sales page.'),
  /** Page released marker. */
  page_released: maybe(z.string(), 'Page released marker.'),
  /** Whether the product has no sales page. */
  without_sales_page: maybe(z.boolean(), 'Whether the product has no sales page.'),
});

/** A product (spec §2.5). Only `hash` is required. */
export const ProductSchema = z.looseObject({
  /** Unique product hash. */
  hash: described(z.string(), 'Unique product hash.'),
  /** Product name. */
  name: maybe(z.string(), 'Product name.'),
  /** Category id, integer 1 to 999999. */
  category_id: maybe(z.number(), 'Category id, integer 1 to 999999.'),
  /** Description. */
  description: maybe(z.string(), 'Description.'),
  /** `course`, `ebook` or `physical`. */
  type: maybe(openEnum(['course', 'ebook', 'physical']), 'course, ebook or physical.'),
  /** Support e-mail address. */
  support_email: maybe(z.string(), 'Support e-mail address.'),
  /** Support phone, digits, max 20. */
  support_phone: maybe(z.string(), 'Support phone, digits, max 20.'),
  /** Refund deadline in days; allowed 7, 15, 30. */
  refund_deadline: maybe(z.number(), 'Refund deadline in days; allowed 7, 15, 30.'),
  /** `draft`, `pre-approved`, `approved`, `pending`, `pending-correction` or `reproved`. */
  status: maybe(
    openEnum(['draft', 'pre-approved', 'approved', 'pending', 'pending-correction', 'reproved']),
    'draft, pre-approved, approved, pending, pending-correction or reproved.',
  ),
  /** Creation time, `YYYY-MM-DD HH:mm:ss` (read it with `parseTimestamp`). */
  created_at: maybe(z.string(), 'Creation time, YYYY-MM-DD HH:mm:ss.'),
  /** Last update time, `YYYY-MM-DD HH:mm:ss` (read it with `parseTimestamp`). */
  updated_at: maybe(z.string(), 'Last update time, YYYY-MM-DD HH:mm:ss.'),
  /** Text on the buyer's card statement, max 13. */
  soft_descriptor: maybe(z.string(), "Text on the buyer's card statement, max 13."),
  /** URL of the warranty document; required for physical products. */
  image_stock: maybe(z.string(), 'URL of the warranty document; required for physical products.'),
  /** URL of the cover image. */
  cover_picture: maybe(z.string(), 'URL of the cover image.'),
  /** Whether the product is active. */
  is_active: maybe(z.boolean(), 'Whether the product is active.'),
  /** Automatic affiliation allowed. */
  has_auto_affiliation: maybe(z.boolean(), 'Automatic affiliation allowed.'),
  /** Affiliation allowed (product level). */
  allow_affiliation: maybe(z.boolean(), 'Affiliation allowed (product level).'),
  /** `first` (first click), `last` (last click) or `multi` (split). */
  affiliate_commission_type: maybe(
    openEnum(['first', 'last', 'multi']),
    'first (first click), last (last click) or multi (split).',
  ),
  /** Commission share of the first click (multi-click). */
  first_click_percentage: maybe(z.number(), 'Commission share of the first click (multi-click).'),
  /** Commission share of the last click (multi-click). */
  last_click_percentage: maybe(z.number(), 'Commission share of the last click (multi-click).'),
  /** Extra data; `links` holds the sales-page settings. */
  metadata: maybe(
    z.looseObject({
      /** Sales-page settings. */
      links: maybe(ProductLinksSchema, 'Sales-page settings.'),
    }),
    'Extra data; links holds the sales-page settings.',
  ),
});
/** A product (spec §2.5). */
export type Product = z.infer<typeof ProductSchema>;

/** Pagination of the product list (`meta`, spec §2.13). */
export const ProductListMetaSchema = z.looseObject({
  /** Page number of this page. */
  current_page: maybe(z.number(), 'Page number of this page.'),
  /** Number of the last page. */
  last_page: maybe(z.number(), 'Number of the last page.'),
  /** Page size. */
  per_page: maybe(z.number(), 'Page size.'),
  /** Total number of products. */
  total: maybe(z.number(), 'Total number of products.'),
});
/** Pagination of the product list (spec §2.13). */
export type ProductListMeta = z.infer<typeof ProductListMetaSchema>;

/** The body of `GET /products` (spec §4.10): `{ data: Product[], meta }`. */
export const ProductListResponseSchema = z.looseObject({
  /** The products of this page. */
  data: described(z.array(ProductSchema), 'The products of this page.'),
  /** Pagination (spec §2.13). */
  meta: maybe(ProductListMetaSchema, 'Pagination (spec §2.13).'),
});
/** The body of `GET /products` (spec §4.10). */
export type ProductListResponse = z.infer<typeof ProductListResponseSchema>;

/** Query of `products.list` (spec §4.10): `page` 1 to 999, `per_page` 1 to 50. No defaults are sent. */
export const ListProductsParamsSchema = z.looseObject(
  {
    /** Page number, integer 1 to 999. */
    page: z.optional(integer('Page number, integer 1 to 999.', { min: 1, max: 999 })),
    /** Page size, integer 1 to 50. */
    per_page: z.optional(integer('Page size, integer 1 to 50.', { min: 1, max: 50 })),
  },
  OBJECT,
);
/** Query of `products.list` (spec §4.10). */
export type ListProductsParams = z.input<typeof ListProductsParamsSchema>;
