/**
 * The types of the partner's own objects that the SDK's `@example` blocks call into: a database,
 * a logger, the functions that act on a webhook. They say what the examples assume of them, so
 * an example that passes the wrong thing to them fails to type-check (`jsdoc-examples.test.ts`).
 */

import type { WebhookEvent } from 'partner-sdk/webhooks';

/** A row of the webhook keys table the SQL dedupe store example keeps. */
export interface WebhookKeyRow {
  key: string;
  owner: string | null;
  handled: boolean;
  expires_at: number;
}

/** What the SQL dedupe store example asks of a transaction. */
export interface Transaction {
  selectForUpdate(table: 'webhook_keys', key: string): Promise<WebhookKeyRow | undefined>;
  upsert(table: 'webhook_keys', row: WebhookKeyRow): Promise<void>;
}

/** The partner's database, as the examples use it. */
export interface PartnerDatabase {
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  upsert(table: 'webhook_keys', row: WebhookKeyRow): Promise<void>;
  delete(table: 'webhook_keys', where: Partial<WebhookKeyRow>): Promise<void>;
  subscriptions: {
    end(subscriptionCode: string, endReason: string | null | undefined): Promise<void>;
  };
  bankAccounts: {
    setStatus(
      code: string,
      status: string | null | undefined,
      reason: string | null | undefined,
    ): Promise<void>;
  };
}

/** A structured logger (pino, winston). */
export interface PartnerLog {
  info(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}

/** The partner's own ending of a subscription, by its code (every example hands it the code). */
export type EndSubscription = (subscriptionCode: string) => Promise<void>;

/** The partner's own handling of a delivery a dedupe store let through. */
export type HandleEvent = (event: WebhookEvent) => Promise<void>;
