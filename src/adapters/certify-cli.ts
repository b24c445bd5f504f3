/**
 * `health-sandbox certify-receiver <url> --secret <whsec_…> [--json] [--timeout <seconds>]`
 * (issue 46): the receiver certification (src/state/webhooks/certify.ts) from the command line,
 * over the node transport, with the wall clock read here (the edge). Exit 0 when every check
 * passes, 1 when any fails, 2 for bad arguments or a refused URL.
 */
import { CertifyRefused, certifyReceiver, certifyText, addressProblem, standaloneProblem } from '../state/webhooks/certify.js';
import { normaliseSecret } from '../state/webhooks/signing.js';
import { createNodeTransport } from './node-transport.js';

/** The real attempt timeout (../shared/reference/webhooks.md section 2). */
const DEFAULT_TIMEOUT_SECONDS = 15;

const CERTIFY_USAGE =
  'health-sandbox certify-receiver <url> --secret <whsec_...> [--json] [--timeout <seconds>]\n' +
  '  Sends a fixed battery of signed and badly signed deliveries to <url> and grades each answer.\n' +
  '  Exit 0: every check passed; 1: a check failed; 2: bad arguments.\n';

interface CertifyArgs {
  url: string;
  secret: string;
  json: boolean;
  timeoutMs: number;
}

class ArgError extends Error {}

function parseArgs(argv: readonly string[], env: Record<string, string | undefined>): CertifyArgs {
  let url: string | undefined;
  let secret = env.HEALTH_SANDBOX_RECEIVER_SECRET;
  let json = false;
  let timeout = DEFAULT_TIMEOUT_SECONDS;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] =
      arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new ArgError(`${name} needs a value`);
      return v;
    };
    if (name === '--secret') secret = value();
    else if (name === '--json') json = true;
    else if (name === '--timeout') {
      timeout = Number(value());
      if (!(timeout > 0 && timeout <= 30)) throw new ArgError('--timeout must be above 0 and at most 30 seconds');
    } else if (name.startsWith('-')) throw new ArgError(`Unknown option ${name}`);
    else if (url === undefined) url = arg;
    else throw new ArgError(`Unexpected argument ${arg}`);
  }
  if (url === undefined) throw new ArgError('Give the receiver URL');
  if (secret === undefined) throw new ArgError('Give the endpoint secret with --secret (or HEALTH_SANDBOX_RECEIVER_SECRET)');
  const normal = normaliseSecret(secret);
  if ('error' in normal) throw new ArgError(`--secret: ${normal.error}`);
  return { url, secret: normal.key, json, timeoutMs: Math.round(timeout * 1000) };
}

/** Runs the subcommand; answers the exit code. */
export async function certifyCli(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  out: (text: string) => void,
  err: (text: string) => void,
): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    out(CERTIFY_USAGE);
    return 0;
  }
  let args: CertifyArgs;
  try {
    args = parseArgs(argv, env);
  } catch (error) {
    if (!(error instanceof ArgError)) throw error;
    err(`health-sandbox certify-receiver: ${error.message}\n${CERTIFY_USAGE}`);
    return 2;
  }
  const node = createNodeTransport();
  try {
    const result = await certifyReceiver(
      {
        transport: node.transport,
        wall: Date.now,
        timer: () => performance.now(),
        timeoutMs: args.timeoutMs,
        destinationProblem: standaloneProblem,
        resolvedProblem: (_url, address) => addressProblem(address),
      },
      args.url,
      args.secret,
    );
    out(args.json ? `${JSON.stringify(result, null, 2)}\n` : `${certifyText(result)}\n`);
    return result.passed ? 0 : 1;
  } catch (error) {
    if (!(error instanceof CertifyRefused)) throw error;
    err(`health-sandbox certify-receiver: ${error.message}\n`);
    return 2;
  } finally {
    node.close();
  }
}
