/** The completion scripts of `svcctl completion <shell>`: a driver plus data from completion-tree.ts. */
import { CLI_NAME } from '../core/constants.js';
import type { CompletionNode, ValueKind } from './completion-tree.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

type Dialect = 'sh' | 'fish';
const quote = (dialect: Dialect, text: string): string =>
  dialect === 'sh' ? `'${text.replaceAll("'", `'\\''`)}'` : `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
const valueWords = (value: ValueKind): string[] =>
  value.kind === 'choices' ? ['choices', ...value.choices] : [value.kind];

/** A function `name KEY` printing the lines of KEY, one per line. */
function table(dialect: Dialect, name: string, rows: Array<[string, string[]]>): string {
  const filled = rows.filter(([, lines]) => lines.length > 0);
  const print = (lines: string[]): string => `printf '%s\\n' ${lines.map((line) => quote(dialect, line)).join(' ')}`;
  if (dialect === 'sh') {
    const cases = filled.map(([key, lines]) => `    ${quote('sh', key)}) ${print(lines)} ;;`);
    return `${name}() {\n  case "$1" in\n${cases.join('\n')}\n  esac\n}`;
  }
  const cases = filled.map(([key, lines]) => `    case ${quote('fish', key)}\n      ${print(lines)}`);
  return `function ${name}\n  switch $argv[1]\n${cases.join('\n')}\n  end\nend`;
}

function dataFunctions(dialect: Dialect, nodes: CompletionNode[]): string {
  const key = (node: CompletionNode): string => [CLI_NAME, ...node.path].join(' ');
  const described = (name: string, description: string): string =>
    dialect === 'fish' ? `${name}\t${oneLine(description)}` : name;
  const values: Array<[string, string[]]> = nodes.flatMap((node) =>
    node.options.flatMap((option) => {
      const value = option.value;
      return value
        ? option.names.map((name): [string, string[]] => [`${key(node)}|${name}`, [valueWords(value).join(' ')]])
        : [];
    }),
  );
  return [
    table(
      dialect,
      '__svcctl_commands',
      nodes.map((node) => [key(node), node.commands.map((c) => described(c.name, c.description))]),
    ),
    table(
      dialect,
      '__svcctl_options',
      nodes.map((node) => [key(node), node.options.flatMap((o) => o.names.map((n) => described(n, o.description)))]),
    ),
    table(dialect, '__svcctl_value', values),
    table(
      dialect,
      '__svcctl_argument',
      nodes.map((node) => [key(node), node.argument ? [valueWords(node.argument).join(' ')] : []]),
    ),
  ].join('\n\n');
}

/** Shared by bash and zsh: the command path of the words before the cursor. */
const SH_PATH = `__svcctl_path() {
  [ -n "\${ZSH_VERSION:-}" ] && setopt localoptions shwordsplit
  local p=svcctl skip=0 w c
  for w in "$@"; do
    if [ "$skip" = 1 ]; then skip=0; continue; fi
    case "$w" in
      -*=*) ;;
      -*) [ -n "$(__svcctl_value "$p|$w")" ] && skip=1 ;;
      *) for c in $(__svcctl_commands "$p"); do [ "$c" = "$w" ] && p="$p $w"; done ;;
    esac
  done
  printf '%s\\n' "$p"
}`;

const BASH_DRIVER = `_svcctl() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" opt='' value cmdpath
  cmdpath=$(__svcctl_path "\${COMP_WORDS[@]:1:COMP_CWORD-1}")
  COMPREPLY=()
  # bash splits --opt=value at '=' (COMP_WORDBREAKS): the option is the word before the '='.
  if [ "$cur" = '=' ]; then opt=$prev; cur=''
  elif [ "$prev" = '=' ] && [ "$COMP_CWORD" -ge 2 ]; then opt=\${COMP_WORDS[COMP_CWORD-2]}
  elif [[ $prev == -* ]]; then opt=$prev; fi
  value=$([ -n "$opt" ] && __svcctl_value "$cmdpath|$opt")
  case "$value" in
    choices*) mapfile -t COMPREPLY < <(compgen -W "\${value#choices }" -- "$cur"); return ;;
    file) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return ;;
    dir) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$cur"); return ;;
    text) return ;;
  esac
  local argument i dashes=0
  argument=$(__svcctl_argument "$cmdpath")
  # After '--' every word belongs to the command run (event run): first its name, then its files.
  if [ "$argument" = command ]; then
    for ((i = 1; i < COMP_CWORD; i++)); do [ "\${COMP_WORDS[i]}" = -- ] && dashes=$i; done
    if [ "$dashes" -gt 0 ]; then
      if [ "$COMP_CWORD" -eq $((dashes + 1)) ]; then mapfile -t COMPREPLY < <(compgen -c -- "$cur" | sort -u)
      else compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur"); fi
      return
    fi
  fi
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(__svcctl_options "$cmdpath")" -- "$cur"); return
  fi
  mapfile -t COMPREPLY < <(compgen -W "$(__svcctl_commands "$cmdpath")" -- "$cur")
  case "$argument" in
    file) compopt -o filenames 2>/dev/null; mapfile -t -O "\${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$cur") ;;
    choices*) mapfile -t -O "\${#COMPREPLY[@]}" COMPREPLY < <(compgen -W "\${argument#choices }" -- "$cur") ;;
  esac
}
complete -F _svcctl svcctl`;

const ZSH_DRIVER = `_svcctl() {
  local cur=\${words[CURRENT]} prev=\${words[CURRENT-1]} opt='' value cmdpath
  cmdpath=$(__svcctl_path "\${(@)words[2,CURRENT-1]}")
  if [[ $cur == --*=* ]]; then opt=\${cur%%=*}; compset -P '*='
  elif [[ $prev == -* ]]; then opt=$prev; fi
  [[ -n $opt ]] && value=$(__svcctl_value "$cmdpath|$opt")
  case $value in
    choices*) compadd -- \${=\${value#choices }}; return ;;
    file) _files; return ;;
    dir) _files -/; return ;;
    text) return 1 ;;
  esac
  local argument=$(__svcctl_argument "$cmdpath") dashes=\${words[(I)--]}
  if [[ $argument == command ]] && (( dashes > 1 && dashes < CURRENT )); then
    if (( CURRENT == dashes + 1 )); then _command_names -e; else _files; fi
    return
  fi
  if [[ $cur == -* ]]; then compadd -- \${(f)"$(__svcctl_options "$cmdpath")"}; return; fi
  compadd -- \${(f)"$(__svcctl_commands "$cmdpath")"}
  case $argument in
    file) _files ;;
    choices*) compadd -- \${=\${argument#choices }} ;;
  esac
}
if [[ \${zsh_eval_context[-1]:-} == loadautofunc ]]; then _svcctl "$@"; else compdef _svcctl svcctl; fi`;

const FISH_DRIVER = `function __svcctl_path
  set -l p svcctl
  set -l skip 0
  for w in $argv
    if test $skip = 1; set skip 0; continue; end
    switch $w
      case '-*=*'
      case '-*'
        set -l v (__svcctl_value "$p|$w")
        test -n "$v"; and set skip 1
      case '*'
        contains -- $w (__svcctl_commands $p | string replace -r '\\t.*' ''); and set p "$p $w"
    end
  end
  echo $p
end

function __svcctl_complete
  set -l tokens (commandline -opc)
  set -l cur (commandline -ct)
  set -l p (__svcctl_path $tokens[2..-1])
  set -l opt ''
  set -l prefix ''
  if string match -q -- '--*=*' $cur
    set opt (string split -m1 = -- $cur)[1]
    set prefix "$opt="
    set cur (string split -m1 = -- $cur)[2]
  else if test (count $tokens) -gt 1; and string match -q -- '-*' $tokens[-1]
    set opt $tokens[-1]
  end
  set -l value ''
  test -n "$opt"; and set value (__svcctl_value "$p|$opt")
  switch "$value"
    case 'choices *'
      for c in (string split ' ' -- (string replace 'choices ' '' -- $value)); echo "$prefix$c"; end; return
    case file
      __fish_complete_path $cur | string replace -r '^' -- $prefix; return
    case dir
      __fish_complete_directories $cur | string replace -r '^' -- $prefix; return
    case text
      return
  end
  set -l argument (__svcctl_argument $p)
  if test "$argument" = command; and contains -- -- $tokens
    if test "$tokens[-1]" = --; __fish_complete_command $cur; else; __fish_complete_path $cur; end
    return
  end
  if string match -q -- '-*' $cur; __svcctl_options $p; return; end
  __svcctl_commands $p
  switch "$argument"
    case file
      __fish_complete_path $cur
    case 'choices *'
      string split ' ' -- (string replace 'choices ' '' -- $argument)
  end
end
complete -c svcctl -f -a '(__svcctl_complete)'`;

export function completionScript(shell: Shell, nodes: CompletionNode[], version: string): string {
  const header = `# ${shell} completion for svcctl ${version}, generated from its commands by \`svcctl completion ${shell}\`.`;
  if (shell === 'fish') return `${header}\n\n${dataFunctions('fish', nodes)}\n\n${FISH_DRIVER}\n`;
  const driver = shell === 'bash' ? BASH_DRIVER : ZSH_DRIVER;
  const first = shell === 'zsh' ? `#compdef svcctl\n${header}` : header;
  return `${first}\n\n${dataFunctions('sh', nodes)}\n\n${SH_PATH}\n\n${driver}\n`;
}
