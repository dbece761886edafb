// @ts-check
/**
 * A local typedoc plugin: a zod schema's page (in the root entry point, `partner-sdk`) names its zod class (`ZodMiniObject`), not the shape
 * type expanded field by field. Each schema's fields are documented once, on the named type it is
 * proven to infer (`ProductSchema` → `Product`, see test/types/schemas-match.test-d.ts), and its
 * comment links there; expanding the shape again would list every field a second time, undocumented.
 *
 * It also checks that promise: every schema `XSchema` has its named type `X` in the reference, an
 * interface (whose fields typedoc's `notDocumented` validation requires to be documented) or an
 * alias of one (`Envelope<Refund[]>`). A miss is a validation warning, which `treatWarningsAsErrors`
 * turns into a failed docs build.
 */
import { Application, Converter, DeclarationReflection, ReflectionKind } from 'typedoc';

/**
 * The root entry point's schemas (`partner-sdk.ProductSchema`), which each have a named type.
 *
 * @param {import('typedoc').Reflection} reflection
 */
const isRootSchema = (reflection) =>
  reflection.name.endsWith('Schema') && reflection.parent?.name === 'partner-sdk';

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    const project = context.project;
    for (const variable of project.getReflectionsByKind(ReflectionKind.Variable)) {
      if (!(variable instanceof DeclarationReflection) || !variable.name.endsWith('Schema'))
        continue;
      const type = variable.type;
      if (type?.type !== 'reference' || !type.typeArguments) continue;
      for (const argument of type.typeArguments) project.removeTypeReflections(argument);
      type.typeArguments = undefined;
    }
  });

  app.on(Application.EVENT_VALIDATE_PROJECT, (project) => {
    const named = new Map(
      project
        .getReflectionsByKind(ReflectionKind.Interface | ReflectionKind.TypeAlias)
        .map((reflection) => [reflection.name, reflection]),
    );
    for (const variable of project.getReflectionsByKind(ReflectionKind.Variable)) {
      if (!isRootSchema(variable) || variable.isDeprecated()) continue;
      const typeName = variable.name.slice(0, -'Schema'.length);
      if (!named.has(typeName)) {
        app.logger.validationWarning(
          `${variable.getFriendlyFullName()} has no named type ${typeName} in the reference`,
        );
      }
    }
  });
}
