/**
 * One wire record of each kind, picked from the testing kit's fixtures (`src/testing/fixtures/`):
 * the project's one source of wire data, hand-written from the spec's tables and never generated
 * from the SDK's schemas, so a wrong schema fails a test instead of agreeing with itself. Each is
 * a function returning a fresh object, so a test can change one without touching the others.
 */

import {
  anticipationHistory,
  feeTierHistory,
  processingExport,
  transactions,
  WITH_ACTIVE_REFUND,
} from '../../src/testing/fixtures/financial';
import { catalogue } from '../../src/testing/fixtures/products';
import { bankAccounts, companyUser, personUser } from '../../src/testing/fixtures/users';

/** A person seller (spec §2.1 to §2.3). */
export const wireUser = () => personUser();

/** A company seller whose registration is not complete. */
export const wireCompanyUser = () => companyUser();

/** A PIX bank account (spec §2.4). */
export const wireBankAccount = () => bankAccounts()[0]!;

/** A physical product with every field set (spec §2.5), under `hash` when given. */
export const wireProduct = (hash?: string) => {
  const { product } = catalogue(4)[2]!;
  return hash === undefined ? product : { ...product, hash };
};

/** A recurring offer with its subscription (spec §2.6, §2.7). */
export const wireOffer = () => catalogue(4)[3]!.offers[0]!.offer;

/** An offer with its freight (spec §2.6, §2.8). */
export const wireShippedOffer = () => catalogue(4)[2]!.offers[0]!.offer;

/** An active (`requested`) refund (spec §2.9). */
export const wireRefund = () =>
  transactions().find((transaction) => transaction.hash === WITH_ACTIVE_REFUND)!.refunds[0]!;

/** A statement export while it runs (spec §2.10). */
export const wireExport = (hash = 'exp_33q') => processingExport(hash);

/** An anticipation (spec §2.11), under `hash` when given (`null`: created outside the API). */
export const wireAnticipation = (hash?: string | null) => {
  const anticipation = anticipationHistory()[0]!;
  return hash === undefined ? anticipation : { ...anticipation, hash };
};

/** A fee-tier history record (spec §2.12). */
export const wireFeeTierChange = () => feeTierHistory()[0]!;

/** The common envelope around `data` (spec §2). */
export const envelope = (data: unknown, status = 'success') => ({
  status,
  message: 'Operação realizada com sucesso',
  data,
});
