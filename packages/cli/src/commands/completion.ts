/**
 * `partner-sdk completion bash|zsh|fish`: a completion script for the shell, written from the
 * program's own commands and options, so it never falls behind them.
 *
 * @module
 */

import { Command, type Option } from 'commander';
import { UsageError } from '../context';
import { type Action, examples } from './action';

/** One command's words: its subcommands, or its options when it has none. */
interface Node {
  path: string[];
  words: string[];
  description: string;
}

const flagsOf = (options: readonly Option[]) =>
  options.flatMap((o) => [o.long, o.short].filter((f): f is string => Boolean(f)));

/** Every command path with the words that may follow it. */
function walk(command: Command, path: string[] = []): Node[] {
  const subs = command.commands.filter((c) => c.name() !== 'help');
  const own: Node = {
    path,
    words: subs.length ? subs.map((c) => c.name()) : [...flagsOf(command.options), '--help'],
    description: command.description(),
  };
  if (path.length === 0) own.words.push(...flagsOf(command.options), '--help');
  return [own, ...subs.flatMap((c) => walk(c, [...path, c.name()]))];
}

function bash(nodes: Node[]): string {
  const cases = nodes
    .map((n) => `    "${n.path.join(' ')}") words="${n.words.join(' ')}" ;;`)
    .join('\n');
  return `# bash completion for partner-sdk: source it, or save it in
# ~/.local/share/bash-completion/completions/partner-sdk
_partner_sdk() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" word words=""
  local i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    case "$word" in -*) ;; *) path="\${path:+$path }$word" ;; esac
  done
  case "$path" in
${cases}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F _partner_sdk partner-sdk
`;
}

function zsh(nodes: Node[]): string {
  const cases = nodes
    .map((n) => `    "${n.path.join(' ')}") candidates=(${n.words.join(' ')}) ;;`)
    .join('\n');
  return `#compdef partner-sdk
# zsh completion for partner-sdk: save as _partner-sdk in a directory of $fpath, or source it
# after compinit.
_partner_sdk() {
  local -a candidates rest
  local word
  rest=()
  for word in \${words[2,CURRENT-1]}; do
    [[ $word == -* ]] || rest+=($word)
  done
  case "\${(j: :)rest}" in
${cases}
  esac
  compadd -- $candidates
}
if [[ \${funcstack[1]} == _partner_sdk ]]; then
  _partner_sdk "$@"
else
  compdef _partner_sdk partner-sdk
fi
`;
}

const fishQuote = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

function fish(nodes: Node[], root: Command): string {
  const lines = [
    '# fish completion for partner-sdk: save in ~/.config/fish/completions/',
    'complete -c partner-sdk -f',
  ];
  const describe = (path: string[]) => {
    let command: Command | undefined = root;
    for (const name of path) command = command?.commands.find((c) => c.name() === name);
    return command?.description() ?? '';
  };
  for (const node of nodes) {
    const condition =
      node.path.length === 0
        ? '__fish_use_subcommand'
        : node.path.map((p) => `__fish_seen_subcommand_from ${p}`).join('; and ');
    for (const word of node.words) {
      const what = word.startsWith('--')
        ? `-l ${word.slice(2)}`
        : word.startsWith('-')
          ? `-s ${word.slice(1)}`
          : `-a ${word} -d ${fishQuote(describe([...node.path, word]).slice(0, 80))}`;
      lines.push(`complete -c partner-sdk -n ${fishQuote(condition)} ${what}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export function completionCommand(run: Action, program: () => Command): Command {
  return new Command('completion')
    .description('print a shell completion script: bash, zsh or fish')
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText(
      'after',
      examples([
        'source <(partner-sdk completion bash)',
        'partner-sdk completion zsh > ~/.zfunc/_partner-sdk  # with fpath=(~/.zfunc $fpath)',
        'partner-sdk completion fish > ~/.config/fish/completions/partner-sdk.fish',
      ]),
    )
    .action(
      run(async (context, shell: string) => {
        const nodes = walk(program());
        if (shell === 'bash') context.io.stdout.write(bash(nodes));
        else if (shell === 'zsh') context.io.stdout.write(zsh(nodes));
        else if (shell === 'fish') context.io.stdout.write(fish(nodes, program()));
        else
          throw new UsageError(`completion: the shell must be bash, zsh or fish, got "${shell}"`);
      }),
    );
}
