/**
 * The Python that runs examples/python: the first of `python3` on PATH and /usr/bin/python3 that
 * imports pytest and httpx (CI installs Debian's python3-pytest and python3-httpx, .ci/run), as an
 * absolute path. Absent, the Python tests skip with one printed line, unless the run requires
 * them (`HEALTH_SANDBOX_REQUIRE_REFERENCE=1` or `HEALTH_SANDBOX_REQUIRE_PYTHON=1`: CI), where the
 * absence fails the run.
 */
import { spawn, spawnSync } from 'node:child_process';

const REQUIRED = process.env.HEALTH_SANDBOX_REQUIRE_REFERENCE === '1' || process.env.HEALTH_SANDBOX_REQUIRE_PYTHON === '1';

function find(): string | undefined {
  for (const candidate of ['python3', '/usr/bin/python3']) {
    const r = spawnSync(candidate, ['-c', 'import sys, pytest, httpx; print(sys.executable)'], { encoding: 'utf8' });
    if (r.status === 0 && r.stdout.trim() !== '') return r.stdout.trim();
  }
  return undefined;
}

/** The Python's absolute path, or undefined (after printing why the Python tests skip). Throws when required and absent. */
export function pythonWithPytest(): string | undefined {
  const found = find();
  if (found !== undefined) return found;
  const why = 'examples/python skipped: no python3 with pytest and httpx (apt-get install python3-pytest python3-httpx)';
  if (REQUIRED) throw new Error(`${why}, but HEALTH_SANDBOX_REQUIRE_REFERENCE=1 (CI) requires it`);
  console.warn(why);
  return undefined;
}

/**
 * Runs `python -m pytest examples/python` in `root` with `env`; answers the exit code and the output.
 * VITAL_PYTHON_SRC is emptied: the official SDK's contract (examples/python/test_sdk_contract.py,
 * run by hand with a vital-python checkout) skips, so the counts stay the example suite's.
 */
export function runPytest(python: string, root: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(python, ['-m', 'pytest', 'examples/python', '-q', '-p', 'no:cacheprovider'], {
      cwd: root,
      env: { ...env, PYTHONDONTWRITEBYTECODE: '1', VITAL_PYTHON_SRC: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('exit', (code) => done({ code, output }));
  });
}
