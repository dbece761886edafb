/**
 * Every way the package's comments and guides import `ioredis` (an `@example` of the Redis stores,
 * a guide's snippet, a `// or: …` beside node-redis) must give a client a partner can construct
 * in an ES module under `"module": "nodenext"`, the setting of a Node project's TypeScript: there
 * `ioredis`, a CommonJS package, is the module object as a default import, and only its named
 * `Redis` export constructs. The repository's own checks read the examples under `Bundler`
 * resolution, where both forms pass, so this one reads each import form under NodeNext.
 */

import { readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { documentedFiles, ROOT } from '../helpers/doc-snippets';

function sourceFiles(dir: string): string[] {
  return readdirSync(`${ROOT}${dir}`, { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Each distinct `import … from 'ioredis'` written in a comment of `src/` or in a guide. */
function importForms(): Map<string, string[]> {
  const forms = new Map<string, string[]>();
  for (const file of [...sourceFiles('src'), ...documentedFiles()]) {
    const text = readFileSync(`${ROOT}${file}`, 'utf8');
    for (const line of text.split('\n')) {
      const code = file.endsWith('.ts') ? /^\s*(?:\*|\/\/)(.*)$/.exec(line)?.[1] : line;
      for (const match of code?.matchAll(/import\s+(?!type\b)([^;'"]+?)\s+from\s+'ioredis'/g) ??
        []) {
        const form = `import ${match[1]} from 'ioredis';`;
        forms.set(form, [...(forms.get(form) ?? []), file]);
      }
    }
  }
  return forms;
}

describe("the package's ways of importing ioredis", () => {
  const forms = importForms();

  it('are found in the comments and the guides', () => {
    expect(forms.size).toBeGreaterThan(0);
  });

  it('each construct a client in a NodeNext ES module', () => {
    const files = new Map(
      [...forms.keys()].map((form, index) => {
        const name = form.match(/import\s+(?:\{\s*)?(\w+)/)?.[1] ?? 'Redis';
        return [
          `${ROOT}.tmp/ioredis-imports/form-${index}.mts`,
          `${form}\nnew ${name}('redis://127.0.0.1:6379');\n`,
        ];
      }),
    );
    const options: ts.CompilerOptions = {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2023,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
    };
    const host = ts.createCompilerHost(options);
    const readFile = host.readFile.bind(host);
    host.readFile = (path) => files.get(path) ?? readFile(path);
    const exists = host.fileExists.bind(host);
    host.fileExists = (path) => files.has(path) || exists(path);
    const program = ts.createProgram([...files.keys()], options, host);
    const problems = [...files.keys()].flatMap((path, index) => {
      const form = [...forms.keys()][index]!;
      return ts
        .getPreEmitDiagnostics(program, program.getSourceFile(path))
        .map(
          (d) =>
            `${form} (${forms.get(form)?.join(', ')}): ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
        );
    });
    expect(problems).toEqual([]);
  }, 60_000);
});
