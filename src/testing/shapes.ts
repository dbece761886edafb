/**
 * The kit's answers where the spec shows no shape, as switches: by default the kit answers as the
 * SDK assumes (`docs/assumptions.md`), and a test configures it "the other way" to see that a
 * client's `assumptions` option follows a service that differs. Written from the spec and that
 * guide, not from the SDK's own defaults, so the two cannot agree by construction. Also the
 * switches of the rules the spec does not state ({@link MockAssumedRules}), off unless a test turns
 * them on.
 *
 * @module
 */

import type { createMockPartnerApi } from './mock-api';
import { checkKitSwitches } from './shapes-check';

/**
 * How the kit's service answers where the spec shows no shape (the `assumptions` seed option of
 * {@link createMockPartnerApi}). The names and forms are the client's `assumptions` option's, so
 * one object sets both alike (the reconciliation's margin and clock skew, the client's own, are
 * accepted and unused). Every field is optional; the default is the shape the SDK assumes (`DEFAULT_ASSUMPTIONS`). A
 * switch the kit cannot follow (an unknown key, a wrong type, one final status) throws a
 * `TypeError` naming it when the kit is created.
 *
 * @example
 * ```ts
 * const mock = createMockPartnerApi({
 *   assumptions: { login: { path: '/oauth/token', tokenField: 'access_token' } },
 * });
 * ```
 */
export interface MockAssumptions {
  /** The login. Default: `POST /auth` taking `{ client_id, client_secret }`, answering `{ client_token }`. */
  login?: {
    /** Path of the login. */
    path?: string;
    /** Names of the body's two fields. */
    body?: {
      /** The field carrying the client identifier. Default `'client_id'`. */
      clientId?: string;
      /** The field carrying the client secret. Default `'client_secret'`. */
      clientSecret?: string;
    };
    /** Where the token is answered: a field or a dot path (`'auth.token'` answers `{ auth: { token } }`). */
    tokenField?: string;
  };
  /** The refund status endpoint and the statuses a refund goes through. */
  refundStatus?: {
    /** Path of the status endpoint, `{hash}` for the transaction hash (also the 202's `Location`). Default `'/financial/refund/{hash}/status'`. */
    path?: string;
    /**
     * The active statuses, in the order a refund shows them: the first while requested, the
     * second (the first again when only one is given) once accepted. Default
     * `['requested', 'success']`.
     */
    active?: readonly string[];
    /** The final statuses, at least two: done, then failed. Default `['completed', 'failed']`. */
    terminal?: readonly string[];
  };
  /** How a refund's `created_at` is written. */
  reconciliation?: {
    /** The IANA zone of its wall-clock time. Default `'America/Sao_Paulo'`. */
    timeZone?: string;
    /** The client's own (matching a lost request): accepted so one object sets both; unused. */
    marginMs?: number;
    /** The client's own (the clock skew it allows): accepted so one object sets both; unused. */
    maxClockSkewMs?: number;
  };
  /** The export status lookup. */
  exportStatus?: {
    /** Path of the lookup, `{hash}` for the export hash. Default `'/financial/account-statement/export-report/{hash}'`. */
    path?: string;
    /** The status a failed export shows, or a list (the first is shown). Default `'failed'`. */
    failed?: string | readonly string[];
  };
  /** The anticipation confirmation. */
  anticipationConfirmation?: {
    /** The body field carrying the scenario. Default `'scenario'`. */
    field?: string;
  };
  /** How strings are read. */
  strings?: {
    /** Whether every string is trimmed first. Default `true`. */
    trim?: boolean;
    /** An empty string read as missing (`'missing'`, default) or as a value (`'empty'`). */
    blankAs?: 'missing' | 'empty';
  };
}

/**
 * Rules the kit can apply that the spec does not state: each is an assumption about the service,
 * off by default so the kit refuses only what the spec forbids (the `assumedRules` seed option).
 *
 * @example
 * ```ts
 * const mock = createMockPartnerApi({ assumedRules: { birthBeforeToday: true } });
 * ```
 */
export interface MockAssumedRules {
  /** A person's `birth` (and a company partner's) must be before today, as Laravel's `before:today`. */
  birthBeforeToday?: boolean;
  /** The `avatar` must be an image (JPEG, PNG, GIF, BMP, WebP or SVG, told by its bytes). */
  avatarIsImage?: boolean;
  /** A bank-account update sends the account back to review: its `status` becomes `pending`. */
  bankAccountUpdateResetsStatus?: boolean;
  /** `filter.betweenDates` must not start after it ends. */
  exportRangeInOrder?: boolean;
}

/** {@link MockAssumptions} with every default applied. */
export interface KitShapes {
  login: { path: string; body: { clientId: string; clientSecret: string }; tokenField: string };
  refundStatus: {
    path: string;
    active: readonly [string, string];
    terminal: readonly [string, string];
  };
  reconciliation: { timeZone: string };
  exportStatus: { path: string; failed: string };
  anticipationConfirmation: { field: string };
  strings: { trim: boolean; blankAs: 'missing' | 'empty' };
  rules: Required<MockAssumedRules>;
}

/** `{hash}` in a path template, as a route pattern's parameter. */
export function patternOf(template: string): string {
  return template.replace('{hash}', ':hash');
}

/** The kit's shapes from the seed, each default applied; a switch it cannot follow throws. */
export function kitShapes(given: MockAssumptions = {}, rules: MockAssumedRules = {}): KitShapes {
  checkKitSwitches(given, rules);
  const { login = {}, refundStatus = {}, exportStatus = {}, strings = {} } = given;
  const [requested = 'requested', success = requested] = refundStatus.active ?? [
    'requested',
    'success',
  ];
  const [completed = 'completed', failed = 'failed'] = refundStatus.terminal ?? [];
  const exportFailed = exportStatus.failed ?? 'failed';
  return {
    login: {
      path: login.path ?? '/auth',
      body: {
        clientId: login.body?.clientId ?? 'client_id',
        clientSecret: login.body?.clientSecret ?? 'client_secret',
      },
      tokenField: login.tokenField ?? 'client_token',
    },
    refundStatus: {
      path: refundStatus.path ?? '/financial/refund/{hash}/status',
      active: [requested, success],
      terminal: [completed, failed],
    },
    reconciliation: { timeZone: given.reconciliation?.timeZone ?? 'America/Sao_Paulo' },
    exportStatus: {
      path: exportStatus.path ?? '/financial/account-statement/export-report/{hash}',
      failed: typeof exportFailed === 'string' ? exportFailed : exportFailed[0]!,
    },
    anticipationConfirmation: { field: given.anticipationConfirmation?.field ?? 'scenario' },
    strings: { trim: strings.trim ?? true, blankAs: strings.blankAs ?? 'missing' },
    rules: {
      birthBeforeToday: rules.birthBeforeToday ?? false,
      avatarIsImage: rules.avatarIsImage ?? false,
      bankAccountUpdateResetsStatus: rules.bankAccountUpdateResetsStatus ?? false,
      exportRangeInOrder: rules.exportRangeInOrder ?? false,
    },
  };
}

/** `value` under the dot path `field` (`'auth.token'` → `{ auth: { token: value } }`). */
export function nestedAt(field: string, value: unknown): Record<string, unknown> {
  return field.split('.').reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Record<
    string,
    unknown
  >;
}
