// @ts-check
/**
 * A local typedoc plugin: the API reference grouped the way a partner looks for things, not by
 * TypeScript kind. In the root entry point (`partner-sdk`) each export gets a `@group` from where
 * it is declared and what it is: "Client and resources" (the client, its resources and options),
 * "Results" (what calls return), "Params" (what calls take), "Errors". In every entry point a class
 * named `…Error` is in "Errors". An explicit `@group` in a comment wins. The other entry points
 * (webhooks, testing, bulk, Redis) are groups of their own: the modules.
 *
 * The index page is the README under the project's name, which typedoc already shows as the
 * page's title: the README's own first heading (`# partner-sdk`) is dropped there, so the name is
 * not said twice.
 */
import { Comment, CommentTag, Converter, ReflectionKind } from 'typedoc';

/**
 * @param {string} file the declaring file, relative to `src/`
 * @param {import('typedoc').DeclarationReflection} reflection
 */
function groupOf(file, reflection) {
  const name = reflection.name;
  if (/Error$/.test(name) && reflection.kindOf(ReflectionKind.Class)) return 'Errors';
  if (/(^|\/)(errors|call-errors|wait-errors|api-errors|partner-error)\.ts$/.test(file))
    return 'Errors';
  if (/Params(Schema)?$/.test(name) || /(^|\/)params/.test(file)) return 'Params';
  if (file.startsWith('schemas/') || /(Result|Accepted|Existing)$/.test(name)) return 'Results';
  return 'Client and resources';
}

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_END, (context) => {
    const readme = context.project.readme;
    const first = readme?.[0];
    if (first?.kind !== 'text') return;
    const heading = `# ${context.project.name}\n`;
    if (first.text.startsWith(heading)) first.text = first.text.slice(heading.length).trimStart();
  });
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    const parent = reflection.parent;
    if (!parent?.kindOf(ReflectionKind.Module | ReflectionKind.Project)) return;
    if (reflection.kindOf(ReflectionKind.Module)) return;
    const declaration = context.getSymbolFromReflection(reflection)?.declarations?.[0];
    const path = declaration?.getSourceFile().fileName ?? '';
    const file = path.slice(path.lastIndexOf('/src/') + '/src/'.length);
    const root = parent.name === 'partner-sdk';
    const isError = /Error$/.test(reflection.name) && reflection.kindOf(ReflectionKind.Class);
    if (!root && !isError) return;
    reflection.comment ??= new Comment();
    if (reflection.comment.getTag('@group')) return;
    const group = root ? groupOf(file, reflection) : 'Errors';
    reflection.comment.blockTags.push(new CommentTag('@group', [{ kind: 'text', text: group }]));
  });
}
