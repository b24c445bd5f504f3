/** The inspector's browser code as one minified script (scripts/inspector-bundle.mjs). */
export function bundleInspector(root: string): Promise<string>;
