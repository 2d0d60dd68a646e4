// The `chunklog` command: one function per subcommand, each in its own file.
import { exportCommand } from './export-command.js';
import { oneLine, report, UsageError } from './fail.js';
import { importCommand } from './import-command.js';
import { inspectCommand } from './inspect-command.js';
import { EXPORT_USAGE, IMPORT_USAGE, INSPECT_USAGE, USAGE } from './usage.js';

const COMMANDS: Record<string, { run: (args: string[]) => Promise<void>; usage: string }> = {
  inspect: { run: inspectCommand, usage: INSPECT_USAGE },
  export: { run: exportCommand, usage: EXPORT_USAGE },
  import: { run: importCommand, usage: IMPORT_USAGE },
};

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h' || arg === 'help';

/**
 * Runs the command line; sets `process.exitCode` on failure.
 *
 * @param argv - the arguments after the program
 */
export async function main(argv: readonly string[]): Promise<void> {
  const [name, ...args] = argv;
  if (name === undefined || isHelp(name)) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command === undefined) {
    process.stderr.write(`chunklog: unknown command ${oneLine(name)}\n\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${command.usage}\n`);
    return;
  }
  try {
    await command.run(args);
  } catch (error) {
    // parseArgs' own errors (an unknown option) are mistakes in the arguments too.
    const code = (error as { code?: unknown } | null)?.code;
    const argument = typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
    report(name, argument ? new UsageError((error as Error).message) : error, command.usage);
  }
}
