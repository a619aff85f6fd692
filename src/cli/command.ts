import { parseArgs } from 'node:util';
import { ConfigError, parseArgsMessage } from '../config.js';

/**
 * The CLI's commands are described as data: the option table a command's parser reads is the one
 * its `--help` prints, so usage and parser cannot drift apart.
 */

/** One option: what parseArgs needs, and its line in the usage. */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly multiple?: boolean;
  /** The value's name in the usage: `--url URL`. String options only. */
  readonly value?: string;
  /** Shown in the synopsis line; a missing one is a usage error. */
  readonly required?: boolean;
  readonly help: string;
  /** The environment variable read when the flag is absent. */
  readonly env?: string;
  /** What applies when neither is given. */
  readonly default?: string;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

export interface CommandSpec<O extends OptionSpecs = OptionSpecs> {
  /** As typed after `urnbase`: `token create`. */
  readonly name: string;
  /** Positional arguments in the synopsis (`<id>`); without it the command takes none. */
  readonly positionals?: string;
  /** One line: what the command does (also in `urnbase --help`). */
  readonly summary: string;
  readonly options: O;
  /** Lines printed after the options. */
  readonly notes?: readonly string[];
}

type ValueOf<S extends OptionSpec> = S extends { type: 'boolean' }
  ? S extends { multiple: true } ? boolean[] : boolean
  : S extends { multiple: true } ? string[] : string;

/** Parsed values: a required option is always there (parseCommand checks), the others may be missing. */
export type Values<O extends OptionSpecs> = { -readonly [K in keyof O as O[K] extends { required: true } ? K : never]: ValueOf<O[K]> } & {
  -readonly [K in keyof O as O[K] extends { required: true } ? never : K]?: ValueOf<O[K]>;
};

export interface Parsed<O extends OptionSpecs> {
  values: Values<O>;
  positionals: string[];
}

/** Every command answers `--help` and `-h`. */
const HELP: OptionSpec = { type: 'boolean', short: 'h', help: 'show this help' };

/** A usage mistake: one line that ends with where the usage is (exit code 2). */
export function usageError(command: string, message: string): ConfigError {
  return new ConfigError(`${message}; try urnbase ${command} --help`);
}

function parserOptions(options: OptionSpecs) {
  return Object.fromEntries(
    Object.entries(options).map(([name, o]) => [name, { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) }]),
  );
}

/**
 * Whether the arguments ask for help (`--help` or `-h` as an option, not as another option's
 * value and not after `--`), whatever else they hold.
 */
export function wantsHelp(options: OptionSpecs, argv: readonly string[]): boolean {
  const { tokens } = parseArgs({ args: [...argv], options: parserOptions({ ...options, help: HELP }), strict: false, allowPositionals: true, tokens: true });
  return tokens.some((token) => token.kind === 'option' && token.name === 'help');
}

/** Parses strictly by the spec; unknown options, missing values and missing required options are usage errors. */
export function parseCommand<O extends OptionSpecs>(spec: CommandSpec<O>, argv: readonly string[]): Parsed<O> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: parserOptions(spec.options), strict: true, allowPositionals: spec.positionals !== undefined });
  } catch (error) {
    throw usageError(spec.name, parseArgsMessage(error));
  }
  const values = parsed.values as Values<O>;
  for (const [name, option] of Object.entries(spec.options)) {
    if (option.required && (values as Record<string, unknown>)[name] === undefined) throw usageError(spec.name, `${spec.name} needs ${flag(name, option)}`);
  }
  return { values, positionals: parsed.positionals };
}

/** `--url URL`, or `-f FILE` for an option with a short form. */
function flag(name: string, option: OptionSpec): string {
  const value = option.value ? ` ${option.value}` : '';
  return option.short ? `-${option.short}${value}` : `--${name}${value}`;
}

/** `urnbase token create --name NAME --role ROLE [options]` (without `usage:`). */
export function synopsis(spec: CommandSpec): string {
  const required = Object.entries(spec.options)
    .filter(([, o]) => o.required)
    .map(([name, o]) => flag(name, o));
  return ['urnbase', spec.name, ...required, ...(spec.positionals ? [spec.positionals] : []), '[options]'].join(' ');
}

/** The whole `--help` text of a command (no newline at the end). */
export function usage(spec: CommandSpec): string {
  const rows = Object.entries({ ...spec.options, help: HELP }).map(([name, o]) => {
    const flags = `${o.short ? `-${o.short}, ` : '    '}--${name}${o.value ? ` ${o.value}` : ''}${o.multiple ? ' ...' : ''}`;
    const source = [o.env && `$${o.env}`, o.default !== undefined && `default ${o.default === '' ? 'none' : o.default}`].filter(Boolean).join(', ');
    return { flags, help: o.help, source };
  });
  const width = Math.max(...rows.map((r) => r.flags.length)) + 2;
  const lines = rows.flatMap((r) => [`  ${r.flags.padEnd(width)}${r.help}`, ...(r.source ? [`  ${' '.repeat(width)}(${r.source})`] : [])]);
  return [`usage: ${synopsis(spec)}`, '', spec.summary, '', 'options:', ...lines, ...(spec.notes ? ['', ...spec.notes] : [])].join('\n');
}

/** Parses by the spec, or prints its usage and gives undefined when the arguments ask for help. */
export function parseOrHelp<O extends OptionSpecs>(spec: CommandSpec<O>, argv: readonly string[], out: (text: string) => void): Parsed<O> | undefined {
  if (wantsHelp(spec.options, argv)) {
    out(usage(spec));
    return undefined;
  }
  return parseCommand(spec, argv);
}

/**
 * The spec named by `group sub`, or 'help' when the group's usage is asked for (`--help`, `-h`,
 * `help`); a missing or unknown subcommand is a usage error.
 */
export function subcommand<S extends CommandSpec>(group: string, specs: readonly S[], sub: string | undefined): S | 'help' {
  if (sub === '--help' || sub === '-h' || sub === 'help') return 'help';
  const spec = specs.find((s) => s.name === `${group} ${sub}`);
  if (spec) return spec;
  const names = specs.map((s) => s.name.slice(group.length + 1));
  if (sub === undefined) throw usageError(group, `${group} needs a command: ${names.slice(0, -1).join(', ')} or ${names.at(-1)}`);
  throw usageError(group, `unknown ${group} command ${JSON.stringify(sub)}`);
}

/** The usage of a command with subcommands (`urnbase token --help`), or of urnbase itself (group ''). */
export function groupUsage(group: string, specs: readonly CommandSpec[]): string {
  const prefix = group ? `urnbase ${group}` : 'urnbase';
  const width = Math.max(...specs.map((s) => s.name.length)) + 2;
  return [
    `usage: ${prefix} <command> [options]`,
    '',
    'commands:',
    ...specs.map((s) => `  ${s.name.padEnd(width)}${s.summary}`),
    '',
    `${prefix} <command> --help shows a command's usage and options.`,
  ].join('\n');
}
