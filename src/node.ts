/**
 * `health-sandbox/node`: the direct `node:http` server the CLI uses, for Node users who want a
 * listening sandbox without express (`createNodeServer(sandbox).listen(0, '127.0.0.1')`).
 */
export { createNodeListener, createNodeServer, type NodeAdapterOptions } from './adapters/node-http.js';
/**
 * A state file for `createSandbox({ from: readStateFile(path), stateSink: stateFileSink(path) })`
 * (what `--state-file` does; docs/simulated/engine.md "The state file").
 */
export { readStateFile, readWorldFile, StateFileError, stateFileSink } from './adapters/state-file.js';
