// @ts-check
/**
 * A local typedoc plugin: every function and method of partner-sdk's public API must carry an
 * `@example` (on its signature or on its declaration). typedoc's own `notDocumented` validation
 * only asks for a comment; this adds the example. A member of an interface that the partner
 * implements or passes in (a logger, a dedupe store, an option callback) may instead rely on the
 * example of its interface. A miss is a validation warning, which
 * `treatWarningsAsErrors` turns into a failed docs build.
 */
import { Application, DeclarationReflection, ReflectionKind, ReflectionType } from 'typedoc';

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.on(Application.EVENT_VALIDATE_PROJECT, (project) => {
    const ours = project.packageName;
    const candidates = project.getReflectionsByKind(
      ReflectionKind.Function | ReflectionKind.Method | ReflectionKind.Property,
    );
    for (const reflection of candidates) {
      if (!(reflection instanceof DeclarationReflection) || reflection.inheritedFrom) continue;
      const symbolId = project.getSymbolIdFromReflection(reflection);
      if (!symbolId || symbolId.packageName !== ours) continue;
      const signatures = reflection.kindOf(ReflectionKind.Property)
        ? reflection.type instanceof ReflectionType
          ? reflection.type.declaration.getNonIndexSignatures()
          : []
        : reflection.getNonIndexSignatures();
      if (signatures.length === 0) continue;
      const parent = reflection.parent;
      const hasExample =
        reflection.comment?.getTag('@example') ||
        (parent?.kindOf(ReflectionKind.Interface) && parent.comment?.getTag('@example')) ||
        signatures.some((signature) => signature.comment?.getTag('@example'));
      if (!hasExample) {
        app.logger.validationWarning(
          `${reflection.getFriendlyFullName()} (${ReflectionKind[reflection.kind]}) has no @example`,
        );
      }
    }
  });
}
